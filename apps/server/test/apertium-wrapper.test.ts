// The guard of apertium-apy-wrapper.ts: when APY or tornado is not what the wrapper was written
// for, it refuses (exit APY_WRAPPER_REFUSED, one line on stderr) and the provider has no embedded
// APY, rather than one listening on every interface. The changed library is a stand-in module put
// first on PYTHONPATH; the wrapper and the provider are the real ones. Needs Debian's apertium-apy
// (its Python): see apertium.test.ts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createApertiumProvider } from '../src/domain/rendering/translation/apertium';
import { APY_WRAPPER, APY_WRAPPER_REFUSED } from '../src/domain/rendering/translation/apertium-apy-wrapper';
import { which } from '../src/platform/process';

const scratch = mkdtempSync(path.join(tmpdir(), 'parla-apy-wrapper-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** apertium-apy's interpreter (its #! line), as the provider finds it. */
function apyPython(): string {
  const script = which('apertium-apy');
  if (!script) throw new Error("Debian's apertium-apy is not installed: see apertium.test.ts");
  return /^#!\s*(\S+)/.exec(readFileSync(script, 'utf8'))![1]!;
}

/** A folder for PYTHONPATH holding the given modules (path → source). */
function standIn(name: string, modules: Record<string, string>): string {
  const root = path.join(scratch, name);
  for (const [file, source] of Object.entries(modules)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
  return root;
}

function runWrapper(pythonPath: string) {
  const run = spawnSync(apyPython(), ['-c', APY_WRAPPER, String(process.pid), '-p', '9', '-j', '1', scratch], {
    env: { ...process.env, PYTHONPATH: pythonPath, LC_ALL: 'C.UTF-8' },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: run.status, stderr: run.stderr };
}

/** An APY whose module functions are all there, with setup_application() giving `application`. */
const apyWith = (application: string) => ({
  'apertium_apy/__init__.py': '',
  'apertium_apy/apy.py': [
    "__version__ = '9.9'",
    'import argparse, tornado.web',
    'def check_utf8(): pass',
    'def parse_args(argv): return argparse.Namespace(port=9, num_processes=1, ssl_cert=None, ssl_key=None)',
    'def setup_logging(args): pass',
    `def setup_application(args): return ${application}`,
    'def sig_handler(sig, frame): exit()',
    '',
  ].join('\n'),
});

describe('the APY wrapper refuses a changed APY or tornado', () => {
  it('an APY without the module functions it calls', () => {
    const run = runWrapper(standIn('no-functions', { 'apertium_apy/__init__.py': '', 'apertium_apy/apy.py': "__version__ = '9.9'\ndef main(): pass\n" }));
    expect(run.status).toBe(APY_WRAPPER_REFUSED);
    expect(run.stderr).toMatch(/^apy-wrapper: apertium_apy\.apy 9\.9 has no check_utf8\(\), parse_args\(\), setup_logging\(\), setup_application\(\), sig_handler\(\); APY not started/);
  });

  it('an APY whose setup_application() gives something else than a tornado Application', () => {
    const run = runWrapper(standIn('other-application', apyWith('object()')));
    expect(run.status).toBe(APY_WRAPPER_REFUSED);
    expect(run.stderr).toMatch(/setup_application\(\) gave object, not a tornado\.web\.Application/);
  });

  it('a tornado without the public API it uses', () => {
    const run = runWrapper(standIn('no-netutil', { ...apyWith('None'), 'tornado/__init__.py': "version = '99.0'\n", 'tornado/httpserver.py': '' }));
    expect(run.status).toBe(APY_WRAPPER_REFUSED);
    expect(run.stderr).toMatch(/^apy-wrapper: cannot import .*tornado/);
  });

  it('the provider then has no Apertium (logged with the reason), not an APY on every interface', async () => {
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    const before = process.env.PYTHONPATH;
    process.env.PYTHONPATH = standIn('for-provider', { 'apertium_apy/__init__.py': '', 'apertium_apy/apy.py': 'def main(): pass\n' });
    try {
      expect(await createApertiumProvider({ log })).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env.PYTHONPATH;
      else process.env.PYTHONPATH = before;
    }
    const refusal = warnings.map((line) => JSON.parse(line) as { msg: string; err?: { message: string } }).find((entry) => entry.msg === 'apertium-apy did not start');
    expect(refusal?.err?.message).toMatch(new RegExp(`^apertium-apy exited \\(${APY_WRAPPER_REFUSED}\\): apy-wrapper: apertium_apy\\.apy .* has no check_utf8\\(\\)`));
  });
});
