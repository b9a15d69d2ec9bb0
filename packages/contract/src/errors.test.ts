import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  ERROR_TYPES,
  HANDLED_STATUSES,
  NON_FIELD_ERRORS,
  detailSchema,
  errorBodySchema,
  errorItemSchema,
} from './errors';

function issuePaths(schema: z.ZodMiniType, input: unknown): string[] {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.map(String).join('.'));
}

describe('errorBodySchema', () => {
  it('parses a validation error with field, nested and non-field items', () => {
    const body = {
      type: 'validation_error',
      errors: [
        { code: 'invalid', detail: 'Enter a valid e-mail address.', attr: 'email' },
        { code: 'invalid', detail: 'Invalid.', attr: 'rawMessage.content' },
        { code: 'invalid', detail: 'E-mail is not verified.', attr: NON_FIELD_ERRORS },
      ],
    };
    expect(errorBodySchema.parse(body)).toEqual(body);
  });

  it('parses a client error whose attr is null', () => {
    const body = { type: 'client_error', errors: [{ code: 'not_found', detail: 'Not found.', attr: null }] };
    expect(errorBodySchema.parse(body)).toEqual(body);
  });

  it('rejects an unknown type and names the broken item', () => {
    expect(issuePaths(errorBodySchema, { type: 'oops', errors: [] })).toEqual(['type']);
    expect(
      issuePaths(errorBodySchema, {
        type: 'server_error',
        errors: [{ code: 'error', detail: 'A server error occurred.' }],
      }),
    ).toEqual(['errors.0.attr']);
  });

  it('requires code and detail on every item', () => {
    expect(issuePaths(errorItemSchema, { attr: null }).sort()).toEqual(['code', 'detail']);
  });
});

describe('detailSchema', () => {
  it('parses the short {detail} body', () => {
    expect(detailSchema.parse({ detail: 'Successfully logged out.' })).toEqual({
      detail: 'Successfully logged out.',
    });
    expect(issuePaths(detailSchema, { detail: 1 })).toEqual(['detail']);
  });
});

describe('error constants', () => {
  it('lists the three error types and the handled statuses', () => {
    expect([...ERROR_TYPES]).toEqual(['validation_error', 'client_error', 'server_error']);
    expect([...HANDLED_STATUSES]).toEqual([400, 401, 403, 404, 405, 429, 500]);
    expect(NON_FIELD_ERRORS).toBe('non_field_errors');
  });
});
