// The shared validation mechanism on a route of its own: which part of the request failed decides
// the answer (a malformed path id is "no such object", a bad body or query names the field).
import Fastify, { type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idParam, titleField, toneField } from '@parla/contract/fields';
import { installErrorHandling } from '../src/platform/errors';
import { validatorCompiler } from '../src/platform/validation';

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  app.decorateRequest('lang', 'en');
  app.setValidatorCompiler(validatorCompiler);
  installErrorHandling(app);
  app.withTypeProvider<ZodTypeProvider>().post(
    '/things/:id/',
    { schema: { params: z.object({ id: idParam }), querystring: z.object({ limit: z.optional(idParam) }), body: z.object({ title: titleField }) } },
    (request) => ({ id: request.params.id, title: request.body.title }),
  );
  app.withTypeProvider<ZodTypeProvider>().put('/choices/', { schema: { body: z.object({ tone: toneField, count: z.optional(z.int()) }) } }, (request) => request.body);
  await app.ready();
});
afterAll(() => app.close());

const post = (url: string, body: unknown = { title: 'ok' }) => app.inject({ method: 'POST', url, payload: body as object });

describe('validation context', () => {
  it('answers 404 for a malformed or out-of-range path id, whatever the body', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '2147483648', '99999999999999999999']) {
      const answer = await post(`/things/${id}/`, { title: '' });
      expect(answer.statusCode, id).toBe(404);
      expect(answer.json()).toEqual({ type: 'client_error', errors: [{ code: 'not_found', attr: null, detail: 'Not found.' }] });
    }
  });

  it('answers 400 naming the field for a bad body or query on a good path id', async () => {
    const body = await post('/things/7/', { title: 'a\u0000' });
    expect(body.statusCode).toBe(400);
    expect(body.json().errors).toEqual([{ code: 'invalid_characters', attr: 'title', detail: 'This field may not contain control characters.' }]);
    const query = await post('/things/7/?limit=2147483648');
    expect(query.statusCode).toBe(400);
    expect(query.json().errors[0]).toMatchObject({ attr: 'limit', code: 'max_value' });
    expect((await post('/things/2147483647/')).json()).toEqual({ id: 2147483647, title: 'ok' });
  });

  it('says what is wrong in words that fit the input', async () => {
    const errorsOf = async (method: 'POST' | 'PUT', url: string, payload: object) => (await app.inject({ method, url, payload })).json().errors;
    // Not a number at all: not "Expected number, received number".
    expect(await errorsOf('POST', '/things/7/?limit=abc', { title: 'ok' })).toEqual([{ code: 'invalid', attr: 'limit', detail: 'A valid number is required.' }]);
    // Ids start at 1: the bound named is the one that holds.
    expect(await errorsOf('POST', '/things/7/?limit=0', { title: 'ok' })).toEqual([
      { code: 'min_value', attr: 'limit', detail: 'Ensure this value is greater than or equal to 1.' },
    ]);
    // A missing choice is missing, not "undefined is not a valid choice".
    expect(await errorsOf('PUT', '/choices/', {})).toEqual([{ code: 'required', attr: 'tone', detail: 'This field is required.' }]);
    expect(await errorsOf('PUT', '/choices/', { tone: 'LOUD' })).toEqual([{ code: 'invalid_choice', attr: 'tone', detail: '"LOUD" is not a valid choice.' }]);
    expect(await errorsOf('PUT', '/choices/', { tone: 'FORMAL', count: 'x' })).toEqual([{ code: 'invalid_type', attr: 'count', detail: 'Expected number, received string.' }]);
  });
});
