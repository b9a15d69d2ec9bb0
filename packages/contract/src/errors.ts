// The standard error body (product.md "Errors") and its parts.
import * as z from 'zod/mini';

export const ERROR_TYPES = ['validation_error', 'client_error', 'server_error'] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/** attr of errors that belong to no single field. */
export const NON_FIELD_ERRORS = 'non_field_errors';

export const errorItemSchema = z.object({
  code: z.string(),
  detail: z.string(),
  attr: z.nullable(z.string()),
});
export type ErrorItem = z.infer<typeof errorItemSchema>;

export const errorBodySchema = z.object({
  type: z.enum(ERROR_TYPES),
  errors: z.array(errorItemSchema),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The short `{detail}` body some successful calls answer with. */
export const detailSchema = z.object({ detail: z.string() });
export type Detail = z.infer<typeof detailSchema>;

/** The statuses the client's error catalogue handles (spec section 8). */
export const HANDLED_STATUSES = [400, 401, 403, 404, 405, 429, 500] as const;
