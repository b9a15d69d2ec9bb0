// The bad-input guard checked against a small server of its own: a route with planted defects
// (a path id reaching an int4 column, a NUL reaching PostgreSQL, a 4xx in plain text) must be
// reported, each with its mutation; a careful route (and a server whose framework and HTTP-parser
// errors carry the standard body too) must not be.
import http from 'node:http';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RequestValidationError } from '../src/platform/errors';
import { validatorCompiler } from '../src/platform/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGuard, type GuardRun } from './fuzz/guard';
import { failureReport } from './fuzz/verdict';

const standard = (status: number, code: string, attr: string | null = null) => ({
  type: status === 400 ? 'validation_error' : status >= 500 ? 'server_error' : 'client_error',
  errors: [{ code, detail: code, attr }],
});
const send = (reply: FastifyReply, status: number, code: string, attr: string | null = null) =>
  reply.code(status).send(standard(status, code, attr));

let app: FastifyInstance;
let run: GuardRun;
beforeAll(async () => {
  app = Fastify({
    bodyLimit: 1024 * 1024,
    // Errors raised before routing and by Node's HTTP parser get the standard body as well.
    frameworkErrors: (error, _request, reply) => {
      void send(reply, 404, error.code);
    },
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      const body = JSON.stringify(standard(status, 'bad_request'));
      if (socket.writable) {
        socket.end(
          `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler((error: { statusCode?: number; code?: string }, _request, reply) => {
    // A careful server names the refused field, and a malformed path id is no such object.
    if (error instanceof RequestValidationError) {
      if (error.validationContext === 'params') return send(reply, 404, 'not_found');
      return send(reply, 400, 'invalid', error.issues[0]?.path.join('.') || null);
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    return send(reply, status, error.code ?? 'error');
  });
  app.setNotFoundHandler((_request, reply) => send(reply, 404, 'not_found'));
  await app.register(fastifySwagger, { openapi: { info: { title: 'guard self-test', version: '1' } }, transform: jsonSchemaTransform });
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.put(
    '/api/careful/:id/',
    {
      schema: {
        params: z.object({ id: z.coerce.number().int().positive().max(2 ** 31 - 1) }),
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
        body: z.object({
          title: z.string().min(1).max(255).refine((text) => !/[\p{Cc}\p{Cs}]/u.test(text)),
          count: z.number().int().min(0).max(100),
          kind: z.enum(['A', 'B']),
          tags: z.array(z.string().max(20)).max(10).optional(),
        }),
      },
    },
    (request) => ({ id: request.params.id, ...request.body }),
  );
  routes.post(
    '/api/planted/:id/',
    { schema: { params: z.object({ id: z.coerce.number() }), body: z.object({ name: z.string(), size: z.number() }) } },
    (request, reply) => {
      if (request.params.id > 2 ** 31 - 1) throw new Error('value out of range for type integer');
      if (request.body.name.includes('\u0000')) throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
      if (request.body.size < 0) return reply.code(422).type('text/plain').send('negative size');
      return { ok: true };
    },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  run = await runGuard({
    baseUrl,
    doc: app.swagger(),
    seed: 1,
    bodyLimit: 1024 * 1024,
    newSession: () => Promise.reject(new Error('no sessions on this server')),
  });
}, 120_000);
afterAll(() => app?.close());

const failures = (op: string) => run.outcomes.filter((outcome) => outcome.problem && outcome.case.op === op);

describe('the bad-input guard', () => {
  it('sends at least 200 requests to each operation of the document', () => {
    expect(run.summaries.map((summary) => summary.key).sort()).toEqual(['POST /api/planted/{id}/', 'PUT /api/careful/{id}/']);
    for (const summary of run.summaries) expect(summary.cases, summary.key).toBeGreaterThanOrEqual(200);
  });

  it('finds nothing wrong with a careful route', () => {
    expect(failureReport(failures('PUT /api/careful/{id}/'), 2)).toBe('');
  });

  it('reports each planted defect with its mutation and answer', () => {
    const found = failures('POST /api/planted/{id}/').map((outcome) => `${outcome.sent.answer?.status} [${outcome.case.family}] ${outcome.case.label}`);
    expect(found).toEqual(
      expect.arrayContaining([
        '500 [path-id] path id = "2147483648"',
        '500 [path-id] path id = "99999999999999999999"',
        '500 [control-char] body.name = "violet-h\\u0000arbour-42" (NUL)',
        '500 [control-char] body.name = "\\u0000" (NUL only)',
        '422 [number-range] body.size = -1',
      ]),
    );
    const report = failureReport(run.outcomes, run.operations.length);
    expect(report).toContain('POST /api/planted/{id}/:');
    expect(report).toContain('422 4xx body is not JSON (content-type "text/plain") ← negative size');
    expect(report).not.toContain('PUT /api/careful/{id}/');
  });
});
