// Apertium as a translation provider: the APY at APERTIUM_URL, or else Debian's apertium-apy
// started here as a child process on a free loopback port (and stopped with us). Languages are
// reached by a pair of APY's /listPairs or a chain of them (APY's /translateChain); everything
// else is `none`. Apertium knows no tone: every result is DEFAULT.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '@parla/contract/constants';
import {
  APERTIUM_LANGUAGES,
  APERTIUM_MAX_CHAIN,
  APERTIUM_PIVOTS,
  UNUSABLE_APERTIUM_PAIRS,
} from './apertium-languages';
import type { TranslationProvider, TranslationRequest, TranslationResult } from './provider';
import { which } from '../../../platform/process';

/** Where Debian's language-pair packages put their modes (the directory APY is given). */
export const DEBIAN_MODES_DIR = '/usr/share/apertium/modes';
const DEBIAN_LANG_NAMES = '/usr/share/apertium-apy/langNames.db';

export interface ApertiumOptions {
  /** An APY to use (APERTIUM_URL); without it, Debian's apertium-apy is started when installed. */
  url?: string | undefined;
  log: FastifyBaseLogger;
  /** Pairs directory of the embedded APY. */
  modesDir?: string | undefined;
  /** Longest wait for the embedded APY's first answer. */
  startTimeoutMs?: number | undefined;
}

export interface ApertiumProvider extends TranslationProvider {
  readonly name: 'apertium';
  /** Where APY answers: the embedded one's loopback address, or APERTIUM_URL. */
  readonly url: string;
  /** The embedded APY's process id while it runs (undefined with APERTIUM_URL). */
  readonly pid: number | undefined;
  /** Milliseconds the embedded APY took from its start to its first /listPairs answer. */
  readonly startupMs: number | undefined;
  /** The Apertium codes `source` → `target` goes through (2 codes: a direct pair), if any. */
  route(source: Language, target: Language): readonly string[] | undefined;
}

// --- the pair graph -------------------------------------------------------------------------

type Pair = readonly [source: string, target: string];

const baseCode = (code: string) => code.split('_')[0] ?? code;

function sourceCodes(language: Language): string[] {
  return [...APERTIUM_LANGUAGES[language].codes, language];
}

function targetCodes(language: Language): string[] {
  const entry = APERTIUM_LANGUAGES[language];
  return [...(entry.variants ?? []), ...entry.codes, language];
}

const pivotRank = (code: string) => {
  const rank = APERTIUM_PIVOTS.indexOf(code);
  return rank === -1 ? APERTIUM_PIVOTS.length : rank;
};

/** APY's pairs as a directed graph, with the shortest chain between two of our languages. */
class PairGraph {
  /** Identifies the set of pairs, to tell whether a new /listPairs changed anything. */
  readonly signature: string;
  private readonly next = new Map<string, string[]>();
  private readonly routes = new Map<string, readonly string[] | null>();

  constructor(pairs: readonly Pair[]) {
    const usable = pairs.filter(([a, b]) => a !== b && !UNUSABLE_APERTIUM_PAIRS.has(`${baseCode(a)}>${baseCode(b)}`));
    const keys = [...new Set(usable.map(([a, b]) => `${a}>${b}`))].sort();
    this.signature = keys.join(' ');
    for (const key of keys) {
      const [a, b] = key.split('>') as [string, string];
      const list = this.next.get(a) ?? [];
      list.push(b);
      this.next.set(a, list);
    }
    for (const list of this.next.values()) list.sort((x, y) => pivotRank(x) - pivotRank(y) || x.localeCompare(y));
  }

  get size() {
    return this.signature === '' ? 0 : this.signature.split(' ').length;
  }

  route(source: Language, target: Language): readonly string[] | null {
    const key = `${source}>${target}`;
    let route = this.routes.get(key);
    if (route === undefined) {
      route = this.find(source, target);
      this.routes.set(key, route);
    }
    return route;
  }

  private find(source: Language, target: Language): readonly string[] | null {
    const from = sourceCodes(source);
    const to = targetCodes(target);
    // Serbian, Croatian and Bosnian are one Apertium language: no pair between them, and a round
    // trip through English would read worse than the original.
    if (from.some((code) => to.map(baseCode).includes(baseCode(code)))) return null;
    let best: string[] | null = null;
    for (const start of from) {
      for (const goal of to) {
        const path = this.shortest(start, goal);
        if (path && (!best || path.length < best.length)) best = path;
      }
    }
    return best;
  }

  /** Breadth-first, pivots first on ties; at most APERTIUM_MAX_CHAIN pairs. */
  private shortest(start: string, goal: string): string[] | null {
    if (!this.next.has(start)) return null;
    const previous = new Map<string, string>([[start, '']]);
    let frontier = [start];
    for (let hops = 1; hops <= APERTIUM_MAX_CHAIN && frontier.length > 0; hops++) {
      const following: string[] = [];
      for (const node of frontier) {
        for (const neighbour of this.next.get(node) ?? []) {
          if (previous.has(neighbour)) continue;
          previous.set(neighbour, node);
          if (neighbour === goal) {
            const path = [goal];
            for (let at = node; at !== ''; at = previous.get(at) ?? '') path.unshift(at);
            return path;
          }
          following.push(neighbour);
        }
      }
      frontier = following;
    }
    return null;
  }
}

// --- text in and out ------------------------------------------------------------------------
//
// APY gets the text as HTML (its default format): each non-blank line a <p>, so Apertium ends a
// sentence at every line break and keeps the lines; the user's own `*`, `@` and `#` travel as
// empty tags, so the ones left in the answer are Apertium's marks (unknown, untranslated,
// ungenerated word) and are removed.

const KEEP: Readonly<Record<string, string>> = { '*': '<k0/>', '@': '<k1/>', '#': '<k2/>' };
const RESTORE: Readonly<Record<string, string>> = { '<k0/>': '*', '<k1/>': '@', '<k2/>': '#' };
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function toApertiumHtml(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (!/\S/.test(line)) return line;
      const escaped = line
        .replace(/[&<>*@#]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : (KEEP[c] ?? c)))
        // A protected piece's placeholder (protect.ts) travels as an empty tag: formatting to Apertium.
        .replace(/⟦(\d+)⟧/g, '<x$1/>');
      return `<p>${escaped}</p>`;
    })
    .join('\n');
}

export function fromApertiumHtml(html: string): string {
  return html
    .replace(/(?<!&)[*@#]/g, '')
    .replace(/<\/?p>/g, '')
    .replace(/<k[012]\/>/g, (tag) => RESTORE[tag] ?? '')
    .replace(/<x(\d+)\/>/g, '⟦$1⟧')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
      if (name.startsWith('#')) {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      }
      return ENTITIES[name.toLowerCase()] ?? entity;
    });
}

// --- talking to APY -------------------------------------------------------------------------

export class ApertiumError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ApertiumError';
  }
}

const TRANSLATE_TIMEOUT_MS = 60_000;
const LIST_TIMEOUT_MS = 5_000;

async function callApy(base: string, endpoint: string, params: Record<string, string> | undefined, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${base}${endpoint}`, {
      method: params ? 'POST' : 'GET',
      ...(params ? { body: new URLSearchParams(params) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new ApertiumError(`Apertium APY at ${base} did not answer ${endpoint}: ${(error as Error).message}`);
  }
  const body = await response.text().catch(() => '');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const explanation = (json as { explanation?: unknown } | undefined)?.explanation;
    throw new ApertiumError(`Apertium APY ${endpoint} answered ${response.status}${typeof explanation === 'string' ? `: ${explanation}` : ''}`, response.status);
  }
  if (json === undefined) throw new ApertiumError(`Apertium APY ${endpoint} answered something other than JSON`);
  return json;
}

async function listPairs(base: string): Promise<Pair[]> {
  const json = await callApy(base, '/listPairs', undefined, LIST_TIMEOUT_MS);
  const data = (json as { responseData?: unknown }).responseData;
  if (!Array.isArray(data)) throw new ApertiumError('Apertium APY /listPairs answered without responseData');
  const pairs: Pair[] = [];
  for (const item of data as unknown[]) {
    const { sourceLanguage, targetLanguage } = (item ?? {}) as { sourceLanguage?: unknown; targetLanguage?: unknown };
    if (typeof sourceLanguage === 'string' && typeof targetLanguage === 'string') pairs.push([sourceLanguage, targetLanguage]);
  }
  return pairs;
}

// --- the embedded APY -----------------------------------------------------------------------

/** The interpreter of Debian's apertium-apy script (its `#!` line), where APY's modules are. */
function apyInterpreter(script: string): string | undefined {
  try {
    const first = readFileSync(script, 'utf8').split('\n', 1)[0] ?? '';
    const match = /^#!\s*(\S+)/.exec(first);
    return match?.[1] && existsSync(match[1]) && /python/.test(match[1]) ? match[1] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs APY's own entry point with three changes: it listens on 127.0.0.1 only (apertium-apy has
 * no option for the address and would serve every interface), it gets SIGTERM when our process
 * dies however it dies (Linux's parent-death signal), and on its way out it ends its process
 * group, i.e. the translation pipelines it started.
 */
const APY_WRAPPER = `
import atexit, os, signal, sys
try:
    import ctypes
    ctypes.CDLL('libc.so.6', use_errno=True).prctl(1, signal.SIGTERM)
except Exception:
    pass
if os.getppid() != int(sys.argv[1]):
    sys.exit(0)
def end_group():
    if os.getpgrp() == os.getpid():
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        os.killpg(0, signal.SIGTERM)
atexit.register(end_group)
import tornado.tcpserver
bind = tornado.tcpserver.TCPServer.bind
def bind_loopback(self, port, address=None, *args, **kwargs):
    return bind(self, port, '127.0.0.1', *args, **kwargs)
tornado.tcpserver.TCPServer.bind = bind_loopback
sys.argv = ['apertium-apy'] + sys.argv[2:]
from apertium_apy.apy import main
main()
`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** APY processes alive in this process, killed (with their pipelines) when it exits. */
const liveApys = new Set<ChildProcess>();
let exitHook = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function track(child: ChildProcess) {
  liveApys.add(child);
  child.once('exit', () => liveApys.delete(child));
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const apy of liveApys) killGroup(apy, 'SIGTERM');
    });
  }
}

interface Launch {
  child: ChildProcess;
  url: string;
  startupMs: number;
}

/** Starts APY on a free loopback port and waits for its first /listPairs answer. */
async function launch(command: string, args: string[], log: FastifyBaseLogger, timeoutMs: number): Promise<Launch> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(command, [...args.map((a) => (a === '{port}' ? String(port) : a))], {
    // Its own process group, so stopping it stops its pipelines too.
    detached: true,
    cwd: tmpdir(),
    stdio: ['ignore', 'ignore', 'pipe'],
    // APY refuses to start without a UTF-8 locale (Debian's unit sets the same).
    env: { ...process.env, LC_ALL: 'C.UTF-8', PYTHONUNBUFFERED: '1' },
  });
  track(child);
  // Neither APY nor its log pipe keeps our process alive; close() or our exit ends it.
  child.unref();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  const tail: string[] = [];
  let partial = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > 20) tail.shift();
      log.debug({ apy: line }, 'apertium-apy');
    }
  });
  let exited: string | undefined;
  child.once('error', (error) => (exited = error.message));
  child.once('exit', (code, signal) => (exited ??= `exited (${signal ?? code})`));

  const deadline = started + timeoutMs;
  for (;;) {
    if (exited !== undefined) throw new ApertiumError(`apertium-apy ${exited}: ${tail.join(' | ') || 'no output'}`);
    try {
      await listPairs(url);
      return { child, url, startupMs: Math.round(performance.now() - started) };
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      killGroup(child, 'SIGKILL');
      throw new ApertiumError(`apertium-apy did not answer within ${timeoutMs} ms: ${tail.join(' | ') || 'no output'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => killGroup(child, 'SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(force);
      // Pipelines that outlived APY's own clean-up.
      killGroup(child, 'SIGKILL');
      resolve();
    });
    killGroup(child, 'SIGTERM');
  });
}

/** Debian's apertium-apy with at least one pair installed, or undefined. */
function findDebianApy(modesDir: string): { script: string; interpreter: string | undefined } | undefined {
  const script = which('apertium-apy');
  if (!script) return undefined;
  try {
    if (!readdirSync(modesDir).some((file) => file.endsWith('.mode'))) return undefined;
  } catch {
    return undefined;
  }
  return { script, interpreter: apyInterpreter(script) };
}

// --- the provider ---------------------------------------------------------------------------

/**
 * The Apertium provider, or undefined when there is no APY: neither APERTIUM_URL nor Debian's
 * apertium-apy (with pairs), or the embedded one would not start (logged).
 */
export async function createApertiumProvider(options: ApertiumOptions): Promise<ApertiumProvider | undefined> {
  const { log } = options;
  const modesDir = options.modesDir ?? DEBIAN_MODES_DIR;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;

  let url = options.url?.replace(/\/+$/, '');
  let child: ChildProcess | undefined;
  let startupMs: number | undefined;
  let graph: PairGraph | undefined;
  let closing = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let restartDelayMs = 1_000;
  let launchArgs: { command: string; args: string[] } | undefined;

  const apyArgs = (modesDir: string) => [
    '-p', '{port}',
    // One HTTP process (pipelines are processes of their own); a request may take 20 s; an idle
    // pipeline is stopped after 10 minutes (each holds tens of MB).
    '-j', '1', '-t', '20', '-m', '600',
    ...(existsSync(DEBIAN_LANG_NAMES) ? ['-l', DEBIAN_LANG_NAMES] : []),
    modesDir,
  ];

  const loadGraph = async () => {
    const fresh = new PairGraph(await listPairs(url!));
    if (!graph || graph.signature !== fresh.signature) {
      graph = fresh;
      log.info({ pairs: fresh.size, url }, 'apertium pairs loaded');
    }
  };

  const startEmbedded = async (): Promise<boolean> => {
    const apy = findDebianApy(modesDir);
    if (!apy) return false;
    const attempts = [
      ...(apy.interpreter ? [{ command: apy.interpreter, args: ['-c', APY_WRAPPER, String(process.pid), ...apyArgs(modesDir)] }] : []),
      { command: apy.script, args: apyArgs(modesDir) },
    ];
    for (const attempt of launchArgs ? [launchArgs] : attempts) {
      try {
        const started = await launch(attempt.command, attempt.args, log, startTimeoutMs);
        if (attempt.command === apy.script) log.warn('apertium-apy runs unwrapped: it listens on every interface and may outlive a crash of this process');
        launchArgs = attempt;
        child = started.child;
        url = started.url;
        startupMs = started.startupMs;
        watch(started.child);
        log.info({ url, pid: started.child.pid, startupMs }, 'apertium-apy started');
        return true;
      } catch (error) {
        log.warn({ err: error }, 'apertium-apy did not start');
      }
    }
    return false;
  };

  // A crashed APY is started again (1 s, 2 s, ... up to a minute apart); its pairs are read again.
  const watch = (apy: ChildProcess) => {
    const since = performance.now();
    apy.once('exit', (code, signal) => {
      if (closing || child !== apy) return;
      // Pipelines a killed APY could not stop.
      killGroup(apy, 'SIGKILL');
      child = undefined;
      if (performance.now() - since > 60_000) restartDelayMs = 1_000;
      log.warn({ code, signal, restartInMs: restartDelayMs }, 'apertium-apy stopped; restarting it');
      restartTimer = setTimeout(() => void restart(), restartDelayMs);
      restartTimer.unref();
      restartDelayMs = Math.min(restartDelayMs * 2, 60_000);
    });
  };

  const restart = async () => {
    restartTimer = undefined;
    if (closing) return;
    const ok = await startEmbedded();
    if (closing) {
      if (child) await stopChild(child);
      return;
    }
    if (ok) {
      await loadGraph().catch((error: unknown) => log.warn({ err: error }, 'apertium pairs could not be read'));
    } else {
      restartTimer = setTimeout(() => void restart(), restartDelayMs);
      restartTimer.unref();
      restartDelayMs = Math.min(restartDelayMs * 2, 60_000);
    }
  };

  if (url) {
    await loadGraph().catch((error: unknown) => log.warn({ err: error, url }, 'Apertium APY does not answer yet; its pairs are read on first use'));
  } else {
    if (!(await startEmbedded())) return undefined;
    try {
      await loadGraph();
    } catch (error) {
      log.warn({ err: error }, 'apertium pairs could not be read');
      if (child) await stopChild(child);
      return undefined;
    }
  }

  const routeOf = (source: Language, target: Language) => graph?.route(source, target) ?? undefined;

  const translateInto = async (text: string, source: Language, target: Language): Promise<TranslationResult> => {
    if (target === source || !/\S/.test(text)) return { state: 'done', content: text, tone: 'DEFAULT' };
    const route = routeOf(source, target);
    if (!route) return { state: 'none' };
    const common = { q: toApertiumHtml(text), markUnknown: 'yes', deformat: 'html', reformat: 'html-noent' };
    const [from, to] = route as [string, string];
    let json: unknown;
    try {
      json =
        route.length === 2
          ? await callApy(url!, '/translate', { ...common, langpair: `${from}|${to}` }, TRANSLATE_TIMEOUT_MS)
          : await callApy(url!, '/translateChain', { ...common, langpairs: route.join('|') }, TRANSLATE_TIMEOUT_MS);
    } catch (error) {
      // A pair APY no longer has: read its pairs again before the retry.
      if (error instanceof ApertiumError && error.status !== undefined && error.status < 500) graph = undefined;
      throw error;
    }
    const translated = (json as { responseData?: { translatedText?: unknown } }).responseData?.translatedText;
    if (typeof translated !== 'string') throw new ApertiumError('Apertium APY answered without translatedText');
    return { state: 'done', content: fromApertiumHtml(translated), tone: 'DEFAULT' };
  };

  return {
    name: 'apertium',
    supportsTone: false,
    followsInstructions: false,
    get url() {
      return url!;
    },
    get pid() {
      return child?.pid;
    },
    get startupMs() {
      return startupMs;
    },
    route(source, target) {
      if (source === target) return undefined;
      return routeOf(source, target) ?? undefined;
    },
    canTranslate(source, target) {
      if (source === target) return true;
      // Pairs not read yet (an APERTIUM_URL that did not answer): let translate() find out.
      if (!graph) return true;
      return graph.route(source, target) !== null;
    },
    async translate(request: TranslationRequest): Promise<TranslationResult[]> {
      if (!graph) await loadGraph();
      const byLanguage = new Map<Language, Promise<TranslationResult>>();
      for (const { language } of request.targets) {
        if (!byLanguage.has(language)) byLanguage.set(language, translateInto(request.text, request.source, language));
      }
      const settled = new Map<Language, TranslationResult>();
      await Promise.all([...byLanguage].map(async ([language, result]) => settled.set(language, await result)));
      return request.targets.map(({ language }) => settled.get(language)!);
    },
    async health() {
      if (!url) return 'degraded';
      try {
        await loadGraph();
        return 'ok';
      } catch {
        return 'degraded';
      }
    },
    async close() {
      closing = true;
      if (restartTimer) clearTimeout(restartTimer);
      restartTimer = undefined;
      const apy = child;
      child = undefined;
      if (apy) await stopChild(apy);
    },
  };
}
