// Logger settings: no password, hash, token or key reaches a log line at any level. Errors are
// logged without the bound parameters of a failed query (they hold e-mails, hashes, message
// text), without PostgreSQL's `detail`, and with known secret shapes masked in their messages;
// URLs that carry a secret in their path or query are masked. Log messages themselves are fixed
// texts: pass values as fields of the merge object, through these serializers.
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { stdSerializers, type DestinationStream } from 'pino';
import type { Config } from './config';

const REDACTED = '[redacted]';

/** Paths whose last segments are secrets: reset links, activation links. */
const SECRET_PATHS = [/^(\/password\/reset\/)[^?#]+/, /^(\/signup\/activation\/)[^?#]+/, /^(\/api\/accounts\/registration\/verify-email\/)[^?#]+/];
const SECRET_QUERY = /([?&](?:token|key|refresh|access|access_token|password|code|uid)=)[^&#]*/gi;
/** JWTs, our scrypt hashes, and PostgreSQL's quoted input values ('...syntax for type integer: "x"'). */
const SECRET_SHAPES: [RegExp, string][] = [
  [/eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]{5,}/g, REDACTED],
  [/scrypt\$[^\s"',]+/g, REDACTED],
  [/(:\s*)"[^"]*"\s*$/gm, `$1"${REDACTED}"`],
];

/** Whether a URL could hold a secret at all (most do not: skip the work). */
const MAYBE_SECRET_URL = /reset|activation|verify|[?&]/;

export function redactUrl(url: string): string {
  if (!MAYBE_SECRET_URL.test(url)) return url;
  let masked = url;
  for (const pattern of SECRET_PATHS) masked = masked.replace(pattern, `$1${REDACTED}`);
  return masked.replace(SECRET_QUERY, `$1${REDACTED}`);
}

export function redactText(text: string): string {
  return SECRET_SHAPES.reduce((masked, [pattern, replacement]) => masked.replace(pattern, replacement), text);
}

/** Fields of database errors that quote row values. */
const DROPPED_FIELDS = new Set(['params', 'detail', 'where', 'internalQuery', 'cause']);

type ErrorLike = Error & Record<string, unknown>;

/** A copy of the error chain without parameters, row values or secret shapes. */
export function redactError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 8) return error;
  const source = error as ErrorLike;
  // A plain Error carrying the original's name and constructor: some classes' getters refuse to
  // run on a copy (DOMException's `name` throws "Value of this must be of DOMException").
  const copy = Object.create(Error.prototype) as ErrorLike;
  Object.defineProperty(copy, 'name', { value: error.name, enumerable: false, writable: true });
  Object.defineProperty(copy, 'constructor', { value: error.constructor, enumerable: false, writable: true });
  for (const key of Object.keys(source)) {
    if (!DROPPED_FIELDS.has(key)) copy[key] = source[key];
  }
  // Drizzle's message is "Failed query: <sql>\nparams: <values>": keep the SQL only. (The
  // driver's own error under it also carries `query` and `params`, but a message of its own.)
  const drizzle = typeof source['query'] === 'string' && source.message.startsWith('Failed query:');
  const message = drizzle ? `Failed query: ${String(source['query'])}` : redactText(source.message);
  const frames = (source.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  Object.defineProperty(copy, 'message', { value: message, enumerable: false, writable: true });
  Object.defineProperty(copy, 'stack', { value: [`${error.name}: ${message}`, ...frames].join('\n'), enumerable: false, writable: true });
  if (source.cause !== undefined) Object.defineProperty(copy, 'cause', { value: redactError(source.cause, depth + 1), enumerable: false });
  return copy;
}

/** One line per request, when it is answered (Fastify's default writes two). */
export class RequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

export function loggerOptions(config: Pick<Config, 'logLevel'>, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    // No pino `redact` and no logMethod hook: both cost on every line. Request lines are built by
    // the req serializer below (method, masked URL, address: never headers or bodies), errors by
    // the err serializer.
    serializers: {
      err: (error: Error) => stdSerializers.err(redactError(error) as Error),
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
