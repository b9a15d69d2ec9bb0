// The document check (document-check.ts) against a small server of its own: answers that keep to
// the document pass; an undocumented status, a body of the wrong shape, a wrong content type and a
// body where none is documented are each reported.
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAnswers, type AnswerCheck } from './document-check';

let app: FastifyInstance;
let check: AnswerCheck;
// Its planted violations are not the suite's: they stay out of the tally the test command prints.
const tally = process.env.PARLA_DOCUMENT_TALLY;
beforeAll(async () => {
  delete process.env.PARLA_DOCUMENT_TALLY;
  app = Fastify();
  await app.register(fastifySwagger, { openapi: { info: { title: 'document check self-test', version: '1' } } });
  check = checkAnswers(app);
  const schema = {
    querystring: { type: 'object', properties: { how: { type: 'string' } } },
    response: {
      200: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      204: { description: 'none', type: 'null' },
    },
  };
  app.get('/api/thing/:id/', { schema }, async (request, reply) => {
    const how = (request.query as { how?: string }).how;
    // The route's types allow only documented statuses: a careless route gets past them with a cast.
    if (how === 'teapot') return reply.code(418 as 200).send({ name: 'tea' });
    // Fastify's serializer would coerce a wrong type: send raw JSON as a careless route could.
    if (how === 'number') return reply.type('application/json').serializer((body) => JSON.stringify(body)).send({ name: 42 });
    if (how === 'text') return reply.type('text/plain').send('plain');
    if (how === 'empty') return reply.code(204).send('something');
    return { name: 'fine' };
  });
  await app.ready();
});
afterAll(async () => {
  if (tally) process.env.PARLA_DOCUMENT_TALLY = tally;
  await app?.close();
});

describe('the document check', () => {
  it('passes answers that keep to the document and reports each that does not', async () => {
    for (const how of ['fine', 'teapot', 'number', 'text', 'empty']) await app.inject(`/api/thing/1/?how=${how}`);
    expect(check.checked).toBe(5);
    const found = check.violations.join('\n');
    expect(check.violations, found).toHaveLength(4);
    expect(found).toContain('how=teapot → 418: status 418 is not documented');
    expect(found).toMatch(/how=number → 200: .*must be string/);
    expect(found).toContain('how=text → 200: content type "text/plain" is not among application/json');
    expect(found).toContain('how=empty → 204: a body');
    expect(() => check.assertClean()).toThrow(/4 answers differ from the OpenAPI document/);
  });
});
