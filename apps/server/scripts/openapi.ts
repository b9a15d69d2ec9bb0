// Writes the server's OpenAPI document (what /api/docs/json serves) to a file or stdout, built from
// the routes without a database of its own (PGlite in memory) or a listening port:
//   npx tsx apps/server/scripts/openapi.ts [out.json]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/platform/config';

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'parla-openapi-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', TRANSLATION_PROVIDER: 'none', STT_PROVIDER: 'none', TTS_PROVIDER: 'none', WEB_DIST_DIR: path.join(dataDir, 'none') });
config.pgliteDir = 'memory://';
const app = await buildApp(config);
await app.ready();
const doc = JSON.stringify(app.swagger(), null, 2);
await app.close();
await rm(dataDir, { recursive: true, force: true });
const out = process.argv[2];
if (out) await writeFile(out, `${doc}\n`);
else process.stdout.write(`${doc}\n`);
