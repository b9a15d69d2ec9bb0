import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, startServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const create = (client: Awaited<ReturnType<typeof signedIn>>['client'], body: unknown) =>
  client.request('POST', '/api/rooms/', { json: body, xsrf: true });

describe('/api/rooms/', () => {
  it('answers 401 when signed out', async () => {
    const answer = await server.client().get('/api/rooms/');
    expect(answer.status).toBe(401);
    expect(answer.body.errors[0].code).toBe('not_authenticated');
  });

  it('creates a room whose creator is its OWNER, and lists it', async () => {
    const { client } = await signedIn(server);
    const empty = await client.get('/api/rooms/?limit=5');
    expect(empty.body).toEqual({ count: 0, next: null, previous: null, results: [] });

    const created = await create(client, { title: '  Weekly sync  ', languages: ['en', 'es'], domain: 'BUSINESS' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Weekly sync', description: null, languages: ['en', 'es'], domain: 'BUSINESS', state: 3001, roomRole: 1001 });
    expect(Date.parse(created.body.created)).not.toBeNaN();

    const listed = await client.get('/api/rooms/?limit=5');
    expect(listed.status).toBe(200);
    expect(listed.body.count).toBe(1);
    expect(listed.body.results).toEqual([created.body]);
  });

  it('refuses control characters in title and description with 400 naming the field', async () => {
    const { client } = await signedIn(server);
    const answer = await create(client, { title: 'Sync\u0000', description: 'About\u0000us' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { attr: string; code: string }) => [e.attr, e.code])).toEqual([
      ['title', 'invalid_characters'],
      ['description', 'invalid_characters'],
    ]);
  });

  it('defaults languages to the creator’s and domain to DEFAULT', async () => {
    const { client } = await signedIn(server);
    const created = await create(client, { title: 'Defaults' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ languages: ['en'], domain: 'DEFAULT' });
  });

  it('pages newest first with full next/previous links, and shows strangers nothing', async () => {
    const { client } = await signedIn(server);
    for (const title of ['one', 'two', 'three']) expect((await create(client, { title })).status).toBe(201);
    const first = await client.get('/api/rooms/?limit=2');
    expect(first.body.count).toBe(3);
    expect(first.body.results.map((r: { title: string }) => r.title)).toEqual(['three', 'two']);
    expect(first.body.next).toBe(`${server.url}/api/rooms/?limit=2&offset=2`);
    expect(first.body.previous).toBeNull();
    const second = await client.get(new URL(first.body.next).pathname + new URL(first.body.next).search);
    expect(second.body.results.map((r: { title: string }) => r.title)).toEqual(['one']);
    expect(second.body.next).toBeNull();
    expect(second.body.previous).toBe(`${server.url}/api/rooms/?limit=2&offset=0`);

    const stranger = await signedIn(server);
    expect((await stranger.client.get('/api/rooms/')).body.count).toBe(0);
  });

  it('answers 400 naming bad fields and queries, and writes nothing', async () => {
    const { client } = await signedIn(server);
    const bad = await create(client, { title: '', languages: ['en', 'xx'], domain: 'SPACE' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { attr: string }) => e.attr).sort()).toEqual(['domain', 'languages.1', 'title']);
    const long = await create(client, { title: 'x'.repeat(256) });
    expect(long.status).toBe(400);
    expect(long.body.errors[0]).toMatchObject({ attr: 'title', code: 'max_length' });
    const query = await client.get('/api/rooms/?limit=0');
    expect(query.status).toBe(400);
    expect(query.body.errors[0].attr).toBe('limit');
    expect((await client.get('/api/rooms/')).body.count).toBe(0);
  });

  it('refuses a cookie POST without the XSRF header', async () => {
    const { client } = await signedIn(server);
    const answer = await client.post('/api/rooms/', { title: 'csrf' });
    expect(answer.status).toBe(403);
  });
});
