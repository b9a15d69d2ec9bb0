import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, startServer, type Client, type TestServer } from './harness';

let server: TestServer;
let png: Buffer;
beforeAll(async () => {
  server = await startServer();
  png = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#3366cc' } }).png().toBuffer();
});
afterAll(() => server.close());

const USER = '/api/accounts/user/';

/** A multipart form with one file under `field`. */
function formWith(field: string, content: Buffer | Uint8Array, filename: string, type: string, extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  form.append(field, new Blob([new Uint8Array(content)], { type }), filename);
  return form;
}

const upload = (client: Client, form: FormData, headers: Record<string, string> = {}) =>
  client.request('PATCH', USER, { form, xsrf: true, headers });

describe('GET /api/accounts/user/', () => {
  it('answers 401 without credentials', async () => {
    const answer = await server.client().get(USER);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      type: 'client_error',
      errors: [{ code: 'not_authenticated', attr: null, detail: 'Authentication credentials were not provided.' }],
    });
  });

  it('answers 401 token_not_valid for a forged bearer token', async () => {
    const answer = await server.client().get(USER, { headers: { authorization: 'Bearer not.a.token' } });
    expect(answer.status).toBe(401);
    expect(answer.body.errors).toEqual([{ code: 'token_not_valid', attr: null, detail: 'Token is invalid or expired.' }]);
  });

  it('answers the user for a cookie session and for a Bearer access token', async () => {
    const { client, email, login } = await signedIn(server);
    const expected = { id: login.user.id, email, fullName: 'Ada Lovelace', avatarImage: null, readingLanguage: null };

    const byCookie = await client.get(USER);
    expect(byCookie.status).toBe(200);
    expect(byCookie.body).toEqual(expected);

    const byBearer = await server.client().get(USER, { headers: { authorization: `Bearer ${login.access}` } });
    expect(byBearer.status).toBe(200);
    expect(byBearer.body).toEqual(expected);
  });

  it('refuses a refresh token used as a Bearer access token', async () => {
    const { login } = await signedIn(server);
    const answer = await server.client().get(USER, { headers: { authorization: `Bearer ${login.refresh}` } });
    expect(answer.status).toBe(401);
    expect(answer.body.errors[0].code).toBe('token_not_valid');
  });
});

describe('PUT/PATCH /api/accounts/user/ with JSON', () => {
  it('changes fullName for a cookie session that echoes the XSRF token', async () => {
    const { client, email } = await signedIn(server);
    const answer = await client.request('PATCH', USER, { json: { fullName: 'Ada King' }, xsrf: true });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ email, fullName: 'Ada King', avatarImage: null });
    expect((await client.get(USER)).body.fullName).toBe('Ada King');
  });

  it('keeps a reading language that new chats and rooms start in (null: the interface language)', async () => {
    const { client } = await signedIn(server);
    const host = await signedIn(server);
    const set = await client.request('PATCH', USER, { json: { readingLanguage: 'es' }, xsrf: true });
    expect(set.status).toBe(200);
    expect(set.body.readingLanguage).toBe('es');
    // Invited to a chat in English and Spanish, they read it in Spanish although their interface is English.
    const chat = await host.client.request('POST', '/api/chat/', { json: { title: 'Both', languages: ['en', 'es'] }, xsrf: true });
    const email = (await client.get(USER)).body.email;
    expect((await host.client.request('POST', `/api/chat/${chat.body.id}/members/`, { json: { user: email, chatRole: 2003 }, xsrf: true })).status).toBe(201);
    const accepted = await client.request('POST', `/api/chat/${chat.body.id}/member/accept/`, { xsrf: true });
    expect(accepted.body.language).toBe('es');
    const room = await host.client.request('POST', '/api/rooms/', { json: { title: 'Both', languages: ['en', 'es'] }, xsrf: true });
    expect((await host.client.request('POST', `/api/rooms/${room.body.id}/participants/`, { json: { user: email, roomRole: 1002 }, xsrf: true })).status).toBe(201);
    expect((await client.request('POST', `/api/rooms/${room.body.id}/participant/accept/`, { xsrf: true })).body.language).toBe('es');
    // Back to the interface language; a language not offered is refused.
    expect((await client.request('PATCH', USER, { json: { readingLanguage: null }, xsrf: true })).body.readingLanguage).toBeNull();
    const refused = await client.request('PATCH', USER, { json: { readingLanguage: 'xx' }, xsrf: true });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].attr).toBe('readingLanguage');
  });

  it('answers 403 csrf_failed to a cookie session without the XSRF header, and changes nothing', async () => {
    const { client } = await signedIn(server);
    const answer = await client.request('PATCH', USER, { json: { fullName: 'Mallory' } });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      type: 'client_error',
      errors: [{ code: 'csrf_failed', attr: null, detail: 'CSRF check failed: the X-XSRF-TOKEN header is missing or wrong.' }],
    });
    const wrong = await client.request('PATCH', USER, { json: { fullName: 'Mallory' }, headers: { 'x-xsrf-token': 'forged' } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.errors[0].code).toBe('csrf_failed');
    expect((await client.get(USER)).body.fullName).toBe('Ada Lovelace');
  });

  it('needs no XSRF header with a Bearer token', async () => {
    const { login } = await signedIn(server);
    const client = server.client();
    const headers = { authorization: `Bearer ${login.access}` };
    const patched = await client.request('PATCH', USER, { json: { fullName: 'Bearer Patch' }, headers });
    expect(patched.status).toBe(200);
    expect(patched.body.fullName).toBe('Bearer Patch');
    const put = await client.request('PUT', USER, { json: { fullName: 'Bearer Put' }, headers });
    expect(put.status).toBe(200);
    expect(put.body.fullName).toBe('Bearer Put');
  });

  it('PUT requires fullName', async () => {
    const { client } = await signedIn(server);
    const answer = await client.request('PUT', USER, { json: {}, xsrf: true });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      type: 'validation_error',
      errors: [{ code: 'required', attr: 'fullName', detail: 'This field is required.' }],
    });
  });

  it('PATCH refuses a blank, a too long or a non-string fullName', async () => {
    const { client } = await signedIn(server);
    const blank = await client.request('PATCH', USER, { json: { fullName: '' }, xsrf: true });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({
      type: 'validation_error',
      errors: [{ code: 'blank', attr: 'fullName', detail: 'This field is required.' }],
    });

    const spaces = await client.request('PATCH', USER, { json: { fullName: '   ' }, xsrf: true });
    expect(spaces.status).toBe(400);
    expect(spaces.body.errors[0]).toMatchObject({ attr: 'fullName', code: 'blank' });

    const long = await client.request('PATCH', USER, { json: { fullName: 'x'.repeat(256) }, xsrf: true });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([
      { code: 'max_length', attr: 'fullName', detail: 'Ensure this field has no more than 255 characters.' },
    ]);

    const longest = await client.request('PATCH', USER, { json: { fullName: 'y'.repeat(255) }, xsrf: true });
    expect(longest.status).toBe(200);
    expect(longest.body.fullName).toBe('y'.repeat(255));

    const number = await client.request('PATCH', USER, { json: { fullName: 42 }, xsrf: true });
    expect(number.status).toBe(400);
    expect(number.body.errors).toEqual([
      { code: 'invalid_type', attr: 'fullName', detail: 'Expected string, received number.' },
    ]);
  });

  it('PUT and PATCH refuse a NUL in fullName, as JSON and as a multipart field, and keep the name', async () => {
    const { client } = await signedIn(server);
    for (const method of ['PUT', 'PATCH']) {
      const json = await client.request(method, USER, { json: { fullName: 'Ada\u0000' }, xsrf: true });
      expect(json.status).toBe(400);
      expect(json.body.errors).toEqual([{ code: 'invalid_characters', attr: 'fullName', detail: 'This field may not contain control characters.' }]);
      const form = new FormData();
      form.set('fullName', 'Ada\u0000');
      const multipart = await client.request(method, USER, { form, xsrf: true });
      expect(multipart.status).toBe(400);
      expect(multipart.body.errors[0]).toMatchObject({ code: 'invalid_characters', attr: 'fullName' });
    }
    expect((await client.get(USER)).body.fullName).toBe('Ada Lovelace');
  });

  it('gives the details in Spanish for Accept-Language: es', async () => {
    const { client } = await signedIn(server);
    const answer = await client.request('PATCH', USER, {
      json: { fullName: '' },
      xsrf: true,
      headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.4' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ code: 'blank', attr: 'fullName', detail: 'Este campo es obligatorio.' }]);
  });
});

describe('avatars (multipart)', () => {
  it('re-encodes an uploaded PNG to a 256 px square WebP served under /media/avatars/', async () => {
    const { client } = await signedIn(server);
    const answer = await upload(client, formWith('avatarImage', png, 'me.png', 'image/png', { fullName: 'Pictured' }));
    expect(answer.status).toBe(200);
    expect(answer.body.fullName).toBe('Pictured');
    const url: string = answer.body.avatarImage;
    expect(url.startsWith(`${server.url}/media/avatars/`)).toBe(true);
    expect(url).toMatch(/\.webp$/);
    expect((await client.get(USER)).body.avatarImage).toBe(url);

    const image = await fetch(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
  });

  it('replaces the previous avatar: the new one is served, the old file is gone', async () => {
    const { client } = await signedIn(server);
    const first = (await upload(client, formWith('avatarImage', png, 'a.png', 'image/png'))).body.avatarImage as string;
    const jpeg = await sharp({ create: { width: 300, height: 500, channels: 3, background: '#cc6633' } }).jpeg().toBuffer();
    const second = await upload(client, formWith('avatarImage', jpeg, 'b.jpg', 'image/jpeg'));
    expect(second.status).toBe(200);
    expect(second.body.avatarImage).not.toBe(first);
    expect((await fetch(second.body.avatarImage)).status).toBe(200);
    expect((await fetch(first)).status).toBe(404);
  });

  it('leaves exactly one file on disk after parallel uploads, the one the profile names', async () => {
    const { client, login } = await signedIn(server);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => upload(client, formWith('avatarImage', png, 'a.png', 'image/png'))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    const named = (await client.get(USER)).body.avatarImage as string;
    const files = (await readdir(path.join(server.dataDir, 'media', 'avatars'))).filter((name) => name.startsWith(`${login.user.id}-`));
    expect(files).toEqual([named.split('/').pop()]);
  });

  it('checks the content, not the name: a text file called avatar.png is refused and the old avatar kept', async () => {
    const { client } = await signedIn(server);
    const kept = (await upload(client, formWith('avatarImage', png, 'me.png', 'image/png'))).body.avatarImage as string;

    const fake = Buffer.from('this is not an image, only some text\n'.repeat(20));
    const answer = await upload(client, formWith('avatarImage', fake, 'avatar.png', 'image/png'));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      type: 'validation_error',
      errors: [{ code: 'invalid_image', attr: 'avatarImage', detail: 'Upload a valid image: PNG, JPEG, WebP or GIF.' }],
    });

    expect((await client.get(USER)).body.avatarImage).toBe(kept);
    expect((await fetch(kept)).status).toBe(200);
  });

  it('refuses an image format that is not allowed (SVG)', async () => {
    const { client } = await signedIn(server);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    const answer = await upload(client, formWith('avatarImage', svg, 'a.svg', 'image/svg+xml'));
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ attr: 'avatarImage', code: 'invalid_image' });
  });

  it('refuses a file over 5 MB on avatarImage', async () => {
    const { client } = await signedIn(server);
    const big = Buffer.alloc(5 * 1024 * 1024 + 1024, 7);
    const answer = await upload(client, formWith('avatarImage', big, 'big.png', 'image/png'));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      type: 'validation_error',
      errors: [{ code: 'file_too_large', attr: 'avatarImage', detail: 'The image is larger than 5 MB.' }],
    });
    expect((await client.get(USER)).body.avatarImage).toBeNull();
  });

  it('refuses a file under another field name', async () => {
    const { client } = await signedIn(server);
    const answer = await upload(client, formWith('picture', png, 'me.png', 'image/png'));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      type: 'validation_error',
      errors: [{ code: 'unknown_field', attr: 'picture', detail: 'Unknown field "picture".' }],
    });
    expect((await client.get(USER)).body.avatarImage).toBeNull();
  });

  it('answers 403 to a multipart upload by cookie without the XSRF header', async () => {
    const { client } = await signedIn(server);
    const answer = await client.request('PATCH', USER, { form: formWith('avatarImage', png, 'me.png', 'image/png') });
    expect(answer.status).toBe(403);
    expect(answer.body.errors[0].code).toBe('csrf_failed');
    expect((await client.get(USER)).body.avatarImage).toBeNull();
  });

  it('removes the avatar with JSON {avatarImage: null}; the old file is then 404', async () => {
    const { client } = await signedIn(server);
    const url = (await upload(client, formWith('avatarImage', png, 'me.png', 'image/png'))).body.avatarImage as string;
    expect((await fetch(url)).status).toBe(200);

    const answer = await client.request('PATCH', USER, { json: { avatarImage: null }, xsrf: true });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ fullName: 'Ada Lovelace', avatarImage: null });
    expect((await client.get(USER)).body.avatarImage).toBeNull();

    const gone = await fetch(url);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({
      type: 'client_error',
      errors: [{ code: 'not_found', attr: null, detail: 'Not found.' }],
    });
  });

  it('gives the avatar error in Spanish for Accept-Language: es', async () => {
    const { client } = await signedIn(server);
    const answer = await upload(client, formWith('avatarImage', Buffer.from('plain text'), 'x.png', 'image/png'), {
      'accept-language': 'es',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      { code: 'invalid_image', attr: 'avatarImage', detail: 'Suba una imagen válida: PNG, JPEG, WebP o GIF.' },
    ]);
  });
});
