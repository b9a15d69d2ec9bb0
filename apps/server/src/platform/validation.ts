// Request validation with the contract's zod schemas; failures keep zod's issues (with inputs) so
// the error handler can name the field and translate the message.
import type { FastifySchemaCompiler } from 'fastify';
import type { $ZodType, output } from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { RequestValidationError, type RequestPart } from './errors';

/** Each schema knows the part it validates, so a bad path id can be told from a bad body. */
export const validatorCompiler: FastifySchemaCompiler<$ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = safeParse(schema, data, { reportInput: true });
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(result.error.issues, (httpPart ?? 'body') as RequestPart) };
  };

/** Validates a body that did not go through the route schema (multipart forms). */
export function parseOrThrow<T extends $ZodType>(schema: T, data: unknown): output<T> {
  const result = safeParse(schema, data, { reportInput: true });
  if (result.success) return result.data;
  throw new RequestValidationError(result.error.issues);
}
