// Once before all server tests on PGlite: an initialised, migrated database (our schema and the
// job queue's) dumped to a file, so each test server starts from it in well under a second
// instead of running initdb and the migrations again (2-6 s each on this machine).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { openDatabase } from '../src/core/db/index';
import { createJobs } from '../src/core/jobs';

export default async function setup() {
  if (process.env.TEST_DATABASE === 'postgres') return undefined;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parla-pglite-template-'));
  const database = await openDatabase({ pgliteDir: 'memory://' });
  const jobs = createJobs({ database, databaseUrl: undefined, log: pino({ level: 'silent' }), maintenanceIntervalSeconds: 60 });
  await jobs.start();
  await jobs.close();
  const dump = await database.pglite!.dumpDataDir('none');
  await database.close();
  const file = path.join(dir, 'template.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  process.env.PARLA_PGLITE_TEMPLATE = file;
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
