// Client validation messages in the interface language: zod issues through the "zod" namespace.
import * as z from 'zod/mini';
import type { $ZodConfig } from 'zod/v4/core';
import { i18n } from './i18n';

type Issue = Parameters<NonNullable<$ZodConfig['customError']>>[0];

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function zodMessage(issue: Issue): string {
  const t = (key: string, options?: Record<string, unknown>) => i18n.t(`zod:${key}`, options ?? {});
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === '') return t('required');
      return t('invalid_type', { expected: t(`types.${issue.expected}`), received: t(`types.${describe(issue.input)}`) });
    case 'too_small': {
      const origin = issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'number' ? issue.origin : 'number';
      if (origin === 'string' && Number(issue.minimum) === 1) return t('required');
      return t(`too_small.${origin}`, { minimum: Number(issue.minimum), count: Number(issue.minimum) });
    }
    case 'too_big': {
      const origin = issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'number' ? issue.origin : 'number';
      return t(`too_big.${origin}`, { maximum: Number(issue.maximum), count: Number(issue.maximum) });
    }
    case 'invalid_format':
      if (issue.input === '') return t('required');
      return issue.format === 'email' ? t('invalid_string.email') : t('invalid_string.generic');
    case 'invalid_value':
      return t('invalid_enum_value', { options: issue.values.map(String).join(', ') });
    case 'custom': {
      // Contract rules name their error in params.code (e.g. invalid_characters); a form's own
      // rule names its key with its namespace (form:passwordMismatch).
      const code = (issue.params as { code?: unknown } | undefined)?.code;
      if (typeof code === 'string') return code.includes(':') ? i18n.t(code) : t(code);
      return issue.message ? i18n.t(issue.message) : t('custom');
    }
    default:
      return t('custom');
  }
}

export function installZodMessages() {
  z.config({ customError: (issue) => zodMessage(issue) });
}
