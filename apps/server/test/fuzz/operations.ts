// The operations of the server's own OpenAPI document, in the shape the guard needs.
import type { JsonSchema } from './schema';

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export interface Body {
  /** Undefined when the document describes no body (fields are then discovered by a probe). */
  schema: JsonSchema | undefined;
  json: boolean;
  multipart: boolean;
  /** False when the method takes a body but the document publishes none. */
  documented: boolean;
}

export interface Operation {
  /** "POST /api/rooms/" */
  key: string;
  method: string;
  /** The OpenAPI path template, "/api/rooms/{id}/". */
  path: string;
  params: Param[];
  body: Body | undefined;
  /** The document names a security requirement. */
  secured: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

interface RawOperation {
  parameters?: { name: string; in: Param['in']; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

/** Every operation of the document except the documentation's own routes (/api/docs*). */
export function operationsOf(doc: unknown): Operation[] {
  const document = doc as { paths?: Record<string, Record<string, unknown>>; security?: unknown[] };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (/^\/api\/docs(\/|$)/.test(path)) continue;
    const shared = ((item as { parameters?: RawOperation['parameters'] }).parameters ?? []);
    for (const method of METHODS) {
      const raw = item[method] as RawOperation | undefined;
      if (!raw) continue;
      const upper = method.toUpperCase();
      const params = [...shared, ...(raw.parameters ?? [])].map(
        (param): Param => ({ name: param.name, in: param.in, required: param.required === true || param.in === 'path', schema: param.schema ?? {} }),
      );
      // A path template parameter the document forgot still needs a value.
      for (const match of path.matchAll(/\{([^}]+)\}/g)) {
        if (!params.some((param) => param.in === 'path' && param.name === match[1])) params.push({ name: match[1]!, in: 'path', required: true, schema: {} });
      }
      let body: Body | undefined;
      const content = raw.requestBody?.content;
      if (content && Object.keys(content).length > 0) {
        const types = Object.keys(content);
        const jsonType = types.find((type) => /json/i.test(type));
        const multipartType = types.find((type) => /^multipart\/form-data/i.test(type));
        body = {
          schema: (jsonType && content[jsonType]?.schema) || (multipartType && content[multipartType]?.schema) || content[types[0]!]?.schema,
          json: jsonType !== undefined,
          multipart: multipartType !== undefined,
          documented: true,
        };
      } else if (BODY_METHODS.has(upper)) {
        body = { schema: undefined, json: true, multipart: true, documented: false };
      }
      const security = raw.security ?? document.security ?? [];
      operations.push({ key: `${upper} ${path}`, method: upper, path, params, body, secured: security.length > 0 });
    }
  }
  return operations;
}
