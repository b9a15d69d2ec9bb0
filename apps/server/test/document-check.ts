// Every answer a test server gives is checked against the server's own OpenAPI document by an
// outside validator (openapi-response-validator, on Ajv): its status must be one the operation
// documents, its content type one of those documented for that status (none where none is), and a
// JSON body must match the documented schema, errors included. Violations fail the test file that
// caused them (the harness's close()), and each worker adds its counts to a tally that the global
// teardown prints, so the test command says how much traffic was checked.
import { appendFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import OpenAPIResponseValidator from 'openapi-response-validator';

type Json = Record<string, any>;
interface Documented {
  responses: Record<string, Json>;
  validator: OpenAPIResponseValidator;
}

/** The document's operations, compiled once per worker (every test server serves the same one). */
let compiled: { fingerprint: string; operations: Map<string, Documented> } | undefined;

/**
 * The document read as OpenAPI 3.0.3 says (and strict validators do): `nullable` widens a schema's
 * type only, so an enum that may be null must list null. openapi-response-validator alone is
 * lenient there (it lets null past any nullable enum); with `nullable` turned into a type list
 * first, Ajv applies the enum as written (issue 31, 12: a new account's readingLanguage null).
 */
function strictNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictNullable);
  if (!node || typeof node !== 'object') return node;
  const object = Object.fromEntries(Object.entries(node as Json).map(([key, value]) => [key, strictNullable(value)])) as Json;
  if (object['nullable'] === true && Array.isArray(object['enum']) && typeof object['type'] === 'string') {
    delete object['nullable'];
    object['type'] = [object['type'], 'null'];
  }
  return object;
}

function operationsOf(original: Json): Map<string, Documented> {
  const fingerprint = JSON.stringify(original);
  if (compiled?.fingerprint === fingerprint) return compiled.operations;
  const doc = strictNullable(original) as Json;
  const components = (doc['components'] ?? {}) as Json;
  const resolve = (response: Json): Json =>
    typeof response['$ref'] === 'string' ? (components['responses']?.[String(response['$ref']).split('/').pop()!] as Json) : response;
  const operations = new Map<string, Documented>();
  for (const [path, item] of Object.entries((doc['paths'] ?? {}) as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const responses = Object.fromEntries(Object.entries((operation['responses'] ?? {}) as Record<string, Json>).map(([status, response]) => [status, resolve(response)]));
      // The validator reads each response's first content type: give it the JSON one where there is one.
      const forValidator = Object.fromEntries(
        Object.entries(responses).map(([status, response]) => {
          const json = response['content']?.['application/json'];
          return [status, json ? { content: { 'application/json': json } } : { schema: { type: 'null' } }];
        }),
      );
      operations.set(`${method.toUpperCase()} ${path}`, {
        responses,
        validator: new OpenAPIResponseValidator({ responses: forValidator as never, components: components as never }),
      });
    }
  }
  compiled = { fingerprint, operations };
  return operations;
}

const matches = (documented: string, sent: string) =>
  documented === sent || (documented.endsWith('/*') && sent.startsWith(documented.slice(0, -1)));

export interface AnswerCheck {
  checked: number;
  violations: string[];
  /** Throws with every violation seen (called when the test server closes). */
  assertClean(): void;
}

/** Adds the check to a test server's app (before it is ready). */
export function checkAnswers(app: FastifyInstance): AnswerCheck {
  const state: AnswerCheck = {
    checked: 0,
    violations: [],
    assertClean() {
      const tally = process.env.PARLA_DOCUMENT_TALLY;
      if (tally) appendFileSync(tally, `${state.checked} ${state.violations.length}\n`);
      if (state.violations.length) {
        const shown = state.violations.slice(0, 30).join('\n  ');
        throw new Error(`${state.violations.length} answers differ from the OpenAPI document:\n  ${shown}`);
      }
    },
  };
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    // Only operations of the document: not the web client, /media/ files, the reference page, or a
    // path no route serves (the 404 and 405 answers of unknown paths and methods).
    if (!route || !route.startsWith('/api/') || route.startsWith('/api/docs') || route.includes('*')) return payload;
    if (request.routeOptions.schema?.hide) return payload;
    const head = request.method === 'HEAD';
    const key = `${head ? 'GET' : request.method} ${route.replace(/:(\w+)/g, '{$1}')}`;
    const documented = operationsOf(app.swagger() as unknown as Json).get(key);
    const status = String(reply.statusCode);
    const where = `${request.method} ${request.url.slice(0, 120)} → ${status}`;
    state.checked++;
    if (!documented) {
      state.violations.push(`${where}: ${key} is not in the document`);
      return payload;
    }
    const response = documented.responses[status];
    if (!response) {
      state.violations.push(`${where}: status ${status} is not documented for ${key} (documented: ${Object.keys(documented.responses).join(', ')})`);
      return payload;
    }
    const contentType = String(reply.getHeader('content-type') ?? '').split(';')[0]!.trim();
    const types = Object.keys((response['content'] ?? {}) as Json);
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    const empty = payload === null || payload === undefined || text === '';
    if (!types.length) {
      if (!empty && !head) state.violations.push(`${where}: a body (${contentType || 'no content type'}) where ${key} documents none for ${status}`);
      return payload;
    }
    if (!types.some((type) => matches(type, contentType))) {
      state.violations.push(`${where}: content type "${contentType}" is not among ${types.join(', ')}`);
      return payload;
    }
    if (contentType === 'application/json' && text !== undefined && !head) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        state.violations.push(`${where}: the body is not JSON`);
        return payload;
      }
      const invalid = documented.validator.validateResponse(status, body);
      if (invalid) state.violations.push(`${where}: ${JSON.stringify(invalid.errors).slice(0, 400)} ← ${text.slice(0, 200)}`);
    }
    return payload;
  });
  return state;
}
