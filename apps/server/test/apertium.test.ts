// The Apertium provider against the real thing: Debian's apertium-apy, started by the provider
// (npm test installs it with its pairs; see scripts/lib.sh ensure_apertium). No stand-in.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { endianness } from 'node:os';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApertiumProvider, type ApertiumProvider } from '../src/domain/rendering/translation/apertium';
import type { TranslationRequest } from '../src/domain/rendering/translation/provider';

const log = pino({ level: 'silent' });
let apertium: ApertiumProvider;

beforeAll(async () => {
  const provider = await createApertiumProvider({ log });
  if (!provider) {
    throw new Error(
      "Debian's apertium-apy (or its pairs under /usr/share/apertium/modes) is not installed: `npm test` installs it " +
        '(scripts/lib.sh ensure_apertium), or run `apt-get install apertium-apy apertium-eng-spa apertium-es-pt` by hand.',
    );
  }
  apertium = provider;
  console.info(`apertium-apy answered ${apertium.startupMs} ms after its start (pid ${apertium.pid}, ${apertium.url})`);
});
afterAll(() => apertium?.close());

const to = (...languages: TranslationRequest['targets'][number]['language'][]) =>
  languages.map((language) => ({ language, tone: 'DEFAULT' as const }));

async function translationRequests(url: string): Promise<number> {
  const response = await fetch(`${url}/stats`);
  const body = (await response.json()) as { responseData: { periodStats: { requests: number } } };
  return body.responseData.periodStats.requests;
}

/** Processes of a process group that are still running (not zombies), from /proc. */
function groupMembers(pgid: number): number[] {
  const alive: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') alive.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return alive;
}

/**
 * The local addresses of the sockets listening on `port` (state 0A), IPv4 and IPv6, as the kernel
 * lists them in /proc/net/tcp and /proc/net/tcp6 (an IPv4 address is a 32-bit number in the
 * machine's byte order).
 */
function listeners(port: number): { ipv4: string[]; ipv6: string[] } {
  const read = (file: string) => {
    let table: string;
    try {
      table = readFileSync(file, 'utf8');
    } catch {
      return []; // no IPv6 here
    }
    return table
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A')
      .map((fields) => (fields[1] ?? '').split(':'))
      .filter(([, hexPort]) => parseInt(hexPort ?? '', 16) === port)
      .map(([hexAddress]) => hexAddress ?? '');
  };
  const ipv4 = (hex: string) => {
    const bytes = [...Buffer.from(hex, 'hex')];
    return (endianness() === 'LE' ? bytes.reverse() : bytes).join('.');
  };
  return { ipv4: read('/proc/net/tcp').map(ipv4), ipv6: read('/proc/net/tcp6') };
}

const portOf = (url: string) => Number(new URL(url).port);

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('Apertium provider (embedded apertium-apy)', () => {
  it('starts APY on a loopback port in a few seconds and reads its pairs', async () => {
    expect(apertium.name).toBe('apertium');
    expect(apertium.supportsTone).toBe(false);
    expect(apertium.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(apertium.pid).toBeGreaterThan(0);
    expect(apertium.startupMs).toBeLessThan(10_000);
    expect(await apertium.health()).toBe('ok');
    expect(apertium.route('en', 'es')).toEqual(['eng', 'spa']);
  });

  // Guards apertium-apy-wrapper.ts: APY has no option for the address and would otherwise listen
  // on every interface and family.
  it('listens on 127.0.0.1 only: no 0.0.0.0 or IPv6 listener on its port', async () => {
    expect(listeners(portOf(apertium.url))).toEqual({ ipv4: ['127.0.0.1'], ipv6: [] });
    // The reading itself sees a listener on every interface.
    const everywhere = createServer();
    await new Promise<void>((resolve) => everywhere.listen(0, '0.0.0.0', resolve));
    try {
      expect(listeners((everywhere.address() as AddressInfo).port).ipv4).toEqual(['0.0.0.0']);
    } finally {
      await new Promise((resolve) => everywhere.close(resolve));
    }
  });

  it('translates English to Spanish, with DEFAULT as the tone whatever was asked', async () => {
    const [result] = await apertium.translate({ text: 'The cat is black.', source: 'en', targets: [{ language: 'es', tone: 'FORMAL' }] });
    expect(result).toEqual({ state: 'done', content: expect.stringContaining('gato'), tone: 'DEFAULT' });
    expect(result?.state === 'done' && result.content).toMatch(/negro/);
  });

  it('translates Spanish to English', async () => {
    const [result] = await apertium.translate({ text: 'El perro es blanco.', source: 'es', targets: to('en') });
    expect(result?.state).toBe('done');
    expect(result?.state === 'done' && result.content).toMatch(/dog/i);
    expect(result?.state === 'done' && result.content).toMatch(/white/i);
  });

  it('reaches Portuguese from English through Spanish (translateChain)', async () => {
    expect(apertium.canTranslate('en', 'pt')).toBe(true);
    expect(apertium.route('en', 'pt')).toEqual(['eng', 'spa', 'por']);
    const [result] = await apertium.translate({ text: 'The cat is black.', source: 'en', targets: to('pt') });
    expect(result?.state).toBe('done');
    expect(result?.state === 'done' && result.content).toMatch(/gato/);
    expect(result?.state === 'done' && result.content).toMatch(/negro|preto/);
  });

  it('answers none for a language it cannot reach, and the text itself for the source language', async () => {
    expect(apertium.canTranslate('en', 'ja')).toBe(false);
    expect(apertium.route('en', 'ja')).toBeUndefined();
    // Serbian and Croatian are one Apertium language: no pair between them.
    expect(apertium.canTranslate('sr', 'hr')).toBe(false);
    const results = await apertium.translate({
      text: 'Good morning.',
      source: 'en',
      targets: [...to('ja'), { language: 'en', tone: 'CASUAL' }],
    });
    expect(results).toEqual([{ state: 'none' }, { state: 'done', content: 'Good morning.', tone: 'DEFAULT' }]);
  });

  it('translates once per distinct language, in the order of the targets', async () => {
    const before = await translationRequests(apertium.url);
    const results = await apertium.translate({
      text: 'The house is big.',
      source: 'en',
      targets: [
        { language: 'es', tone: 'FORMAL' },
        { language: 'ca', tone: 'DEFAULT' },
        { language: 'es', tone: 'CASUAL' },
        { language: 'ja', tone: 'DEFAULT' },
      ],
    });
    expect(await translationRequests(apertium.url)).toBe(before + 2);
    expect(results.map((result) => result.state)).toEqual(['done', 'done', 'done', 'none']);
    expect(results[0]).toEqual(results[2]);
    expect(results[0]?.state === 'done' && results[0].content).toMatch(/casa/i);
    expect(results[1]?.state === 'done' && results[1].content).toMatch(/casa/i);
  });

  it('keeps the lines of a multi-line text, and the writer’s own symbols', async () => {
    const text = 'The cat is black.\nThe dog is white\n\n  red car\nMail @ana about #42 & <b>, *now*.';
    const [result] = await apertium.translate({ text, source: 'en', targets: to('es') });
    expect(result?.state).toBe('done');
    const lines = (result?.state === 'done' ? result.content : '').split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/gato/);
    expect(lines[1]).toMatch(/perro/);
    expect(lines[2]).toBe('');
    expect(lines[3]).toMatch(/^ {2}\S/);
    expect(lines[3]).toMatch(/coche|automóvil/i);
    for (const kept of ['@ana', '#42', '&', '<b>', '*']) expect(lines[4]).toContain(kept);
  });

  it('translates a 4,000-character text of many lines, directly and by chain', async () => {
    const line = 'The children walked to the old library on Sunday morning and read books about history.\n';
    const text = line.repeat(Math.ceil(4000 / line.length)).slice(0, 4000);
    const newlines = text.split('\n').length - 1;
    const [spanish, portuguese] = await apertium.translate({ text, source: 'en', targets: to('es', 'pt') });
    for (const result of [spanish, portuguese]) {
      expect(result?.state).toBe('done');
      const content = result?.state === 'done' ? result.content : '';
      expect(content.split('\n').length - 1).toBe(newlines);
      expect(content).toMatch(/biblioteca/);
      // No mark of unknown or ungenerated words is left.
      expect(content).not.toMatch(/[*@#]/);
    }
  });

  it('uses an APY given by URL (APERTIUM_URL) without starting or stopping one', async () => {
    const remote = await createApertiumProvider({ url: `${apertium.url}/`, log });
    expect(remote).toBeDefined();
    expect(remote!.pid).toBeUndefined();
    expect(await remote!.health()).toBe('ok');
    const [result] = await remote!.translate({ text: 'The cat is black.', source: 'en', targets: to('gl') });
    expect(result?.state === 'done' && result.content).toMatch(/gato/);
    await remote!.close();
    expect(await apertium.health()).toBe('ok');
  });

  it('says degraded for an APY that does not answer, and throws on translate so the caller retries', async () => {
    const gone = await createApertiumProvider({ url: 'http://127.0.0.1:9', log });
    expect(gone).toBeDefined();
    expect(await gone!.health()).toBe('degraded');
    await expect(gone!.translate({ text: 'Hello.', source: 'en', targets: to('es') })).rejects.toThrow(/did not answer/);
    await gone!.close();
  });

  it('starts APY again when it dies, and reads its pairs again', async () => {
    const first = apertium.pid!;
    process.kill(first, 'SIGKILL');
    const deadline = Date.now() + 20_000;
    while ((apertium.pid === undefined || apertium.pid === first || (await apertium.health()) !== 'ok') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(apertium.pid).not.toBe(first);
    expect(isRunning(apertium.pid!)).toBe(true);
    expect(listeners(portOf(apertium.url))).toEqual({ ipv4: ['127.0.0.1'], ipv6: [] });
    const [result] = await apertium.translate({ text: 'The cat is black.', source: 'en', targets: to('es') });
    expect(result?.state === 'done' && result.content).toMatch(/gato/);
  });

  it('leaves no process behind after close()', async () => {
    const pid = apertium.pid!;
    // A translation started pipelines (processes of APY's group).
    expect(groupMembers(pid).length).toBeGreaterThan(1);
    await apertium.close();
    expect(isRunning(pid)).toBe(false);
    expect(groupMembers(pid)).toEqual([]);
    expect(apertium.pid).toBeUndefined();
    expect(await apertium.health()).toBe('degraded');
  });
});
