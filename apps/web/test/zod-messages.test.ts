// Client validation messages in the interface language: the contract's own error codes (carried
// in params.code) come from the zod namespace, e.g. a line break in a single-line field.
import { beforeAll, describe, expect, it } from 'vitest';
import { nickNameField, textField, titleField } from '@parla/contract/fields';
import * as z from 'zod/mini';
import englishForm from '../public/locales/en/form.json';
import english from '../public/locales/en/zod.json';
import spanish from '../public/locales/es/zod.json';
import { i18n } from '../src/lib/i18n';
import { installZodMessages } from '../src/lib/zod-i18n';

beforeAll(async () => {
  if (!i18n.isInitialized) await i18n.init({ lng: 'en', fallbackLng: 'en', ns: ['translation', 'zod'], resources: {} });
  i18n.addResourceBundle('en', 'zod', english, true, true);
  i18n.addResourceBundle('es', 'zod', spanish, true, true);
  i18n.addResourceBundle('en', 'form', englishForm, true, true);
  await i18n.changeLanguage('en');
  installZodMessages();
});

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues.map((issue) => issue.message) ?? [];

describe('contract error codes', () => {
  it('says a name or a title may not hold a line break, in the interface language', async () => {
    expect(messages(titleField.safeParse('Team\nLisbon'))).toContain(english.single_line);
    expect(messages(nickNameField.safeParse('Ada\r\nBob'))).toContain(english.single_line);
    await i18n.changeLanguage('es');
    expect(messages(titleField.safeParse('Equipo\nLisboa'))).toContain(spanish.single_line);
    expect(spanish.single_line).not.toBe(english.single_line);
    await i18n.changeLanguage('en');
  });

  it('still says what invalid characters are, and lets a multi-line text keep its lines', () => {
    expect(messages(textField(100).safeParse('a\u0000b'))).toContain(english.invalid_characters);
    expect(textField(100).safeParse('line one\nline two').success).toBe(true);
  });
});

describe("a form's own rules", () => {
  it('say their message in words, not as their key (the repeated password of sign-up)', () => {
    const passwords = z
      .object({ password1: z.string(), password2: z.string() })
      .check(z.refine((values) => values.password1 === values.password2, { params: { code: 'form:passwordMismatch' }, path: ['password2'] }));
    expect(messages(passwords.safeParse({ password1: 'violet-harbour-42', password2: 'violet-harbour-43' }))).toEqual([englishForm.passwordMismatch]);
  });
});
