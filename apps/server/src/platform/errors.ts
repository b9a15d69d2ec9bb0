// The standard error body (product.md "Errors"): factories, the error handler, 404/405.
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { z } from 'zod';
import { NON_FIELD_ERRORS, type ErrorBody, type ErrorType } from '@parla/contract/errors';
import { BLANK, INVALID_CHARACTERS, SINGLE_LINE } from '@parla/contract/fields';
import { FALLBACK_LANGUAGE, type Language } from '@parla/contract/constants';
import { translate, type MessageKey } from './i18n';

type Params = Record<string, string | number>;

export interface ErrorEntry {
  code: string;
  message: MessageKey;
  params?: Params;
  attr: string | null;
}

/** An error whose body is known; `detail` is translated when it is sent. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly type: ErrorType,
    readonly entries: ErrorEntry[],
    readonly headers: Record<string, string> = {},
  ) {
    super(entries.map((e) => e.message).join(' '));
  }
}

export const fieldError = (attr: string, message: MessageKey, params?: Params, code = 'invalid') =>
  new ApiError(400, 'validation_error', [{ code, message, attr, ...(params ? { params } : {}) }]);

export const formError = (message: MessageKey, code = 'invalid', params?: Params) =>
  fieldError(NON_FIELD_ERRORS, message, params, code);

export const validationErrors = (entries: ErrorEntry[]) => new ApiError(400, 'validation_error', entries);

const clientError = (status: number, code: string, message: MessageKey, params?: Params) =>
  new ApiError(status, 'client_error', [{ code, message, attr: null, ...(params ? { params } : {}) }]);

export const notAuthenticated = () => clientError(401, 'not_authenticated', 'notAuthenticated');
export const tokenInvalid = () => clientError(401, 'token_not_valid', 'tokenInvalid');
export const csrfFailed = () => clientError(403, 'csrf_failed', 'csrfFailed');
export const notFound = () => clientError(404, 'not_found', 'notFound');
export const throttled = (retryAfterSeconds: number) => {
  const error = clientError(429, 'throttled', 'throttled', { seconds: retryAfterSeconds });
  Object.assign(error.headers, { 'retry-after': String(retryAfterSeconds) });
  return error;
};

/** The part of a request a schema validates (Fastify's `httpPart`). */
export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

/** Thrown by the validator compiler; carries zod's issues with their inputs and the part. */
export class RequestValidationError extends Error {
  readonly statusCode = 400;
  constructor(
    readonly issues: z.core.$ZodIssue[],
    readonly validationContext: RequestPart = 'body',
  ) {
    super('Request validation failed');
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** An input quoted in a message: scalars as they are (shortened), anything else by its kind. */
function quote(value: unknown): string {
  if (typeof value === 'string') return value.length > 64 ? `${value.slice(0, 64)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return describe(value);
}

/** One zod issue as one entry of the error body. */
export function issueToEntry(issue: z.core.$ZodIssue): ErrorEntry {
  const attr = issue.path.length ? issue.path.map(String).join('.') : NON_FIELD_ERRORS;
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return { code: 'required', message: 'required', attr };
      // A query or path value that is not a number ("abc") reaches zod as NaN after coercion.
      if (issue.expected === 'number' && typeof input === 'number' && Number.isNaN(input)) return { code: 'invalid', message: 'invalidNumber', attr };
      return {
        code: 'invalid_type',
        message: 'invalidType',
        params: { expected: issue.expected, received: describe(input) },
        attr,
      };
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') {
        if (input === '' || min === 1) return { code: 'blank', message: 'required', attr };
        return { code: 'min_length', message: 'tooShort', params: { min }, attr };
      }
      if (issue.origin === 'array' || issue.origin === 'set')
        return { code: 'min_length', message: 'tooFewItems', params: { min }, attr };
      return { code: 'min_value', message: 'numberTooSmall', params: { min }, attr };
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return { code: 'max_length', message: 'tooLong', params: { max }, attr };
      if (issue.origin === 'array' || issue.origin === 'set')
        return { code: 'max_length', message: 'tooManyItems', params: { max }, attr };
      return { code: 'max_value', message: 'numberTooBig', params: { max }, attr };
    }
    case 'invalid_format':
      return issue.format === 'email'
        ? { code: 'invalid', message: 'invalidEmail', attr }
        : { code: 'invalid', message: 'invalidFormat', attr };
    case 'invalid_value':
      // A missing enum or literal field is missing, not a wrong choice.
      if (input === undefined) return { code: 'required', message: 'required', attr };
      return { code: 'invalid_choice', message: 'invalidChoice', params: { input: quote(input) }, attr };
    case 'custom':
      if (issue.params?.['code'] === INVALID_CHARACTERS) return { code: INVALID_CHARACTERS, message: 'invalidCharacters', attr };
      if (issue.params?.['code'] === SINGLE_LINE) return { code: SINGLE_LINE, message: 'singleLine', attr };
      if (issue.params?.['code'] === BLANK) return { code: BLANK, message: 'required', attr };
      return { code: 'invalid', message: 'invalidFormat', attr };
    case 'unrecognized_keys':
      return { code: 'unknown_field', message: 'unknownField', params: { field: issue.keys.join(', ') }, attr };
    default:
      return { code: 'invalid', message: 'invalidFormat', attr };
  }
}

export function renderError(error: ApiError, request: FastifyRequest): ErrorBody {
  return errorBody(error, request.lang);
}

/** The standard error body of `error` in `lang` (an HTTP answer's, or a live acknowledgement's). */
export function errorBody(error: ApiError, lang: Language): ErrorBody {
  return {
    type: error.type,
    errors: error.entries.map((entry) => ({
      code: entry.code,
      attr: entry.attr,
      detail: translate(lang, entry.message, entry.params),
    })),
  };
}

export const serverError = () => new ApiError(500, 'server_error', [{ code: 'error', message: 'serverError', attr: null }]);

/**
 * What a failed operation answers outside an HTTP request (a live acknowledgement): the ApiError
 * it threw, its validation issues as the 400 an HTTP request would get, else a 500 (`unexpected`
 * true: the caller logs it).
 */
export function answerFor(error: unknown): { error: ApiError; unexpected: boolean } {
  const known = error instanceof ApiError || error instanceof RequestValidationError ? toApiError(error) : null;
  return known ? { error: known, unexpected: known.statusCode >= 500 } : { error: serverError(), unexpected: true };
}

function toApiError(error: FastifyError | ApiError | RequestValidationError): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof RequestValidationError) {
    // A malformed path id means no such object, not a bad request.
    if (error.validationContext === 'params') return notFound();
    return validationErrors(error.issues.map(issueToEntry));
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return formError('invalidJson', 'parse_error');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return formError('unsupportedMediaType', 'unsupported_media_type', { type: 'unknown' });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return formError('bodyTooLarge', 'too_large');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return formError('unsupportedMediaType', 'unsupported_media_type', { type: 'multipart' });
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // A path that cannot be read names nothing.
      return notFound();
    default:
      break;
  }
  if (error.statusCode === 404) return notFound();
  // Any other request the framework could not take: a 400 is always a validation_error.
  if (error.statusCode === 400) return formError('invalidFormat');
  if (error.statusCode && error.statusCode > 400 && error.statusCode < 500)
    return clientError(error.statusCode, 'invalid', 'invalidFormat');
  return null;
}

const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Installs the error handler and the 404/405 handler. */
export function installErrorHandling(
  app: FastifyInstance,
  fallback?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined,
): void {
  const known = FindMyWay();
  app.addHook('onRoute', (route) => {
    // Catch-all file routes (web client, media) say nothing about which methods a path allows.
    if (route.url.includes('*')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (METHODS.includes(method as HTTPMethod) && !known.hasRoute(method as HTTPMethod, route.url)) {
        known.on(method as HTTPMethod, route.url, () => undefined);
      }
    }
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const apiError = toApiError(error);
    if (apiError) {
      if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return sendError(reply, request, apiError);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, request, serverError());
  });

  app.setNotFoundHandler((request, reply) => {
    const served = fallback?.(request, reply);
    if (served) return served;
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((method) => known.find(method, path) !== null);
    // A route of the request's own method that found nothing (a missing file under /media/*) is
    // a 404, not a 405; HEAD goes with GET.
    const asked = (request.method === 'HEAD' ? 'GET' : request.method) as HTTPMethod;
    if (allowed.length > 0 && !allowed.includes(asked)) {
      const error = clientError(405, 'method_not_allowed', 'methodNotAllowed', { method: request.method });
      Object.assign(error.headers, { allow: allowed.join(', ') });
      return sendError(reply, request, error);
    }
    return sendError(reply, request, notFound());
  });
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers over 16 KB, bytes that
 * are not allowed in a request line): the standard body, in English as no header was read.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let body: ErrorBody = {
    type: 'validation_error',
    errors: [{ code: 'parse_error', attr: NON_FIELD_ERRORS, detail: translate(FALLBACK_LANGUAGE, 'unreadableRequest') }],
  };
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    body = { type: 'client_error', errors: [{ code: 'headers_too_large', attr: null, detail: translate(FALLBACK_LANGUAGE, 'headersTooLarge') }] };
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    body = { type: 'client_error', errors: [{ code: 'timeout', attr: null, detail: translate(FALLBACK_LANGUAGE, 'requestTimeout') }] };
  }
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

/** Errors Fastify meets while routing (a path it cannot decode, a parameter too long). */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void sendError(reply, request, toApiError(error) ?? formError('invalidFormat'));
}

export function sendError(reply: FastifyReply, request: FastifyRequest, error: ApiError) {
  return reply.code(error.statusCode).headers(error.headers).send(renderError(error, request));
}
