// The OpenAPI document the server serves, judged by tools others wrote: swagger-parser validates it
// against the OpenAPI 3 schema and resolves every reference, and Redocly's `recommended` ruleset
// (redocly.yaml: the exceptions the spec decides, each justified) finds no error. The answers the
// tests get are checked against the same document by document-check.ts, on every test server.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { API } from '@parla/contract/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '..');

let server: TestServer;
let doc: Record<string, any>;
let dir: string;
let file: string;
beforeAll(async () => {
  server = await startServer({ TRANSLATION_PROVIDER: 'none', STT_PROVIDER: 'none', TTS_PROVIDER: 'none' });
  doc = (await server.client().get('/api/docs/json')).body;
  dir = await mkdtemp(path.join(os.tmpdir(), 'parla-openapi-'));
  file = path.join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify(doc, null, 2));
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([route, item]) =>
    Object.entries(item).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${route}`, operation })),
  );

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3 with every reference resolved (swagger-parser)', async () => {
    const api = await SwaggerParser.validate(structuredClone(doc) as never);
    const count = Object.values(api.paths ?? {}).reduce((sum, item) => sum + Object.keys(item ?? {}).length, 0);
    // Every operation of the contract's table, and no other.
    expect(count).toBe(Object.keys(API).length);
  });

  it('passes Redocly’s recommended ruleset with no error', { timeout: 120_000 }, async () => {
    const redocly = path.join(serverDir, 'node_modules', '.bin', 'redocly');
    const bin = await import('node:fs').then((fs) => (fs.existsSync(redocly) ? redocly : path.resolve(serverDir, '../../node_modules/.bin/redocly')));
    const { stdout } = await run(bin, ['lint', file, '--config', path.join(serverDir, 'redocly.yaml'), '--format=json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`redocly lint failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`.slice(0, 8000));
    });
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
    const problems = report.problems.map((problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`);
    console.log(`Redocly recommended: ${report.totals.errors} errors, ${report.totals.warnings} warnings`);
    expect(report.totals.errors, problems.join('\n')).toBe(0);
    // And no warning: every operation documents a 4xx (the public reads their per-address limit, issue 31, 12).
    expect(problems).toEqual([]);
  });

  it('names, groups and secures every operation, and documents its errors in the shared body', () => {
    const ids = new Set<string>();
    for (const { key, operation } of operations()) {
      expect(operation.operationId, key).toMatch(/^[a-z][A-Za-z]+$/);
      expect(ids.has(operation.operationId), `${key}: operationId ${operation.operationId} twice`).toBe(false);
      ids.add(operation.operationId);
      expect(operation.summary, key).toBeTruthy();
      expect(operation.tags, key).toHaveLength(1);
      expect(Array.isArray(operation.security), key).toBe(true);
      expect(operation.responses['500'], key).toEqual({ $ref: '#/components/responses/ServerError' });
      for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
        expect(response.description ?? response.$ref, `${key} ${status}`).not.toBe('Default Response');
      }
    }
    expect(doc.components.responses.NotFound.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    expect(doc.components.responses.TooManyRequests.headers['Retry-After']).toBeTruthy();
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'sessionCookie', 'xsrfHeader']);
  });

  it('describes what the issue found missing: uploads, downloads, 204s, cookies, codes and constraints', () => {
    const op = (method: string, route: string) => doc.paths[route][method];
    const upload = op('post', '/api/rooms/{roomId}/segments/').requestBody.content['multipart/form-data'].schema;
    expect(upload.required).toContain('audio');
    expect(upload.properties.audio).toMatchObject({ type: 'string', format: 'binary' });
    expect(op('patch', '/api/accounts/user/').requestBody.content['multipart/form-data'].schema.properties.avatarImage).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(op('get', '/api/rooms/{roomId}/transcript/').responses['200'].content).sort()).toEqual(['application/x-subrip', 'text/plain']);
    for (const [method, route] of [
      ['delete', '/api/chat/{id}/'],
      ['post', '/api/chat/{groupChatId}/members/multi_delete/'],
      ['post', '/api/rooms/{roomId}/participants/multi_delete/'],
      ['delete', '/api/rooms/{id}/'],
    ] as const) {
      expect(op(method, route).responses['204'], `${method} ${route}`).toBeTruthy();
      expect(op(method, route).responses['200'], `${method} ${route}`).toBeUndefined();
    }
    expect(op('post', '/api/accounts/login/').responses['200'].headers['Set-Cookie']).toBeTruthy();
    const roles = JSON.stringify(doc);
    expect(roles).toContain('"x-enum-varnames":["OWNER","ADMIN","MEMBER"]');
    expect(roles).toContain('hands the chat over');
    const create = op('post', '/api/chat/').requestBody.content['application/json'].schema;
    expect(create.properties.title.pattern).toBeTruthy();
    expect(create.properties.title.example).toBe('Weekly planning');
    expect(create.properties.languages.uniqueItems).toBe(true);
  });
});
