// The error catalogue (spec section 8): what the client does with each failed call.
import { HANDLED_STATUSES, NON_FIELD_ERRORS, errorBodySchema, type ErrorBody } from '@parla/contract/errors';

/** Form-level error key of react-hook-form for errors that belong to no field. */
export const FORM_ERROR_KEY = 'form';
export const FALLBACK_MESSAGE = 'Something went wrong, please retry or contact admin.';

/** A failed call: `status` is absent when no answer came (network error). */
export class HttpError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly data: unknown,
  ) {
    super(status ? `HTTP ${status}` : 'Network Error');
  }
}

/** Rejection handed to the caller when the server named fields: the form shows them. */
export class FieldErrors extends Error {
  /** A form showed the errors that name no field (its own error line): no toast says them again. */
  shownInForm = false;
  constructor(
    readonly fields: Record<string, string>,
    readonly body: ErrorBody,
  ) {
    super('validation_error');
  }
}

export type ErrorOutcome =
  | { kind: 'silent' }
  | { kind: 'fields'; fields: Record<string, string>; toast?: string; body: ErrorBody }
  | { kind: 'toast'; message: string }
  | { kind: 'fallback' };

const joinDetails = (body: { errors: { detail: string }[] }) => body.errors.map((e) => e.detail).join(' ');

/** Decides what a failed call leads to; pure, so each branch is tested on its own. */
export function classifyError(error: unknown, cancelled: boolean): ErrorOutcome {
  if (cancelled) return { kind: 'silent' };
  if (!(error instanceof HttpError) || error.status === undefined) return { kind: 'fallback' };
  const { status, data } = error;
  if (!(HANDLED_STATUSES as readonly number[]).includes(status)) return { kind: 'fallback' };
  const parsed = errorBodySchema.safeParse(data);
  if (!parsed.success) {
    const detail = (data as { detail?: unknown } | undefined)?.detail;
    return typeof detail === 'string' ? { kind: 'toast', message: detail } : { kind: 'fallback' };
  }
  const body = parsed.data;
  const fieldEntries = body.errors.filter((e) => e.attr && e.attr !== NON_FIELD_ERRORS);
  const general = body.errors.filter((e) => !e.attr || e.attr === NON_FIELD_ERRORS);
  if (body.type === 'validation_error') {
    const fields: Record<string, string> = {};
    for (const entry of fieldEntries) {
      const key = entry.attr!;
      fields[key] = fields[key] ? `${fields[key]} ${entry.detail}` : entry.detail;
    }
    if (general.length) fields[FORM_ERROR_KEY] = joinDetails({ errors: general });
    return general.length
      ? { kind: 'fields', fields, toast: joinDetails({ errors: general }), body }
      : { kind: 'fields', fields, body };
  }
  return { kind: 'toast', message: joinDetails(body) || FALLBACK_MESSAGE };
}
