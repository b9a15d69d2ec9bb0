import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CachedHttpBackend, LOAD_OPTIONS, backendOptions } from '../src/lib/i18n';
import { json, startApi } from './fake-api';

// Each path answers from its script of statuses, one per attempt; the last one repeats.
const scripts: Record<string, number[]> = {
  '/locales/en/translation.json': [500, 500, 200],
  '/locales/de/translation.json': [404],
  '/locales/fr/translation.json': [503],
  '/locales/it/translation.json': [200],
};
const attempts: Record<string, number[]> = {};
let api: Awaited<ReturnType<typeof startApi>>;

beforeAll(async () => {
  const routes = Object.fromEntries(
    Object.entries(scripts).map(([path, statuses]) => [
      path,
      (_req: unknown, res: Parameters<typeof json>[0]) => {
        const times = (attempts[path] ??= []);
        times.push(Date.now());
        const status = statuses[Math.min(times.length - 1, statuses.length - 1)]!;
        if (path.includes('/it/')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{ not json');
          return;
        }
        json(res, status, status === 200 ? { hello: 'Hello' } : { error: true });
      },
    ]),
  );
  api = await startApi(routes);
});
afterAll(() => api.close());

async function load(lng: string, expirationTime = 0, build = 'build-a') {
  const instance = i18next.createInstance();
  const errors: unknown[] = [];
  await instance
    .use(CachedHttpBackend)
    .init({
      lng,
      fallbackLng: false,
      ns: ['translation'],
      backend: backendOptions(`${api.url}/locales/{{lng}}/{{ns}}.json`, expirationTime, build),
      ...LOAD_OPTIONS,
    })
    .catch((error: unknown) => errors.push(error));
  return { instance, errors };
}

describe('interface translation loading', () => {
  it('uses the spec figures: 5 retries from 350 ms, 10 parallel reads', () => {
    expect(LOAD_OPTIONS).toEqual({ maxRetries: 5, retryTimeout: 350, maxParallelReads: 10 });
  });

  it('retries a 5xx with a doubling delay until it loads', async () => {
    const { instance } = await load('en');
    expect(instance.t('hello')).toBe('Hello');
    const times = attempts['/locales/en/translation.json']!;
    expect(times).toHaveLength(3);
    const gaps = [times[1]! - times[0]!, times[2]! - times[1]!];
    expect(gaps[0]).toBeGreaterThanOrEqual(340);
    expect(gaps[1]).toBeGreaterThanOrEqual(690);
  });

  it('does not retry a 4xx (permanent failure)', async () => {
    const { instance } = await load('de');
    expect(attempts['/locales/de/translation.json']).toHaveLength(1);
    expect(instance.t('hello')).toBe('hello');
  });

  it('stops a failing 5xx after 5 retries', async () => {
    await load('fr');
    expect(attempts['/locales/fr/translation.json']).toHaveLength(6);
  }, 20_000);

  it('keeps loaded files in localStorage for the cache lifetime', async () => {
    localStorage.clear();
    const path = '/locales/en/translation.json';
    const before = attempts[path]?.length ?? 0;
    const first = await load('en', 60 * 60 * 1000);
    expect(first.instance.t('hello')).toBe('Hello');
    const stored = JSON.parse(localStorage.getItem('i18n_build-a_en-translation') ?? 'null') as { data: unknown };
    expect(stored.data).toEqual({ hello: 'Hello' });
    const second = await load('en', 60 * 60 * 1000);
    expect(second.instance.t('hello')).toBe('Hello');
    expect(attempts[path]).toHaveLength(before + 1);
  });

  it('does not use nor keep entries cached by another build of the locale files', async () => {
    localStorage.clear();
    const path = '/locales/en/translation.json';
    const before = attempts[path]?.length ?? 0;
    const stale = JSON.stringify({ savedAt: Date.now(), data: { hello: 'Stale' } });
    localStorage.setItem('i18n_build-old_en-translation', stale);
    localStorage.setItem('i18n_build-old_es-form', stale);
    localStorage.setItem('i18n_en-translation', stale); // written before caches had a build id
    localStorage.setItem('lang', '{"state":{"currentLang":"en"},"version":0}');

    const { instance } = await load('en', 60 * 60 * 1000, 'build-new');
    expect(instance.t('hello')).toBe('Hello');
    expect(attempts[path]).toHaveLength(before + 1);
    expect(localStorage.getItem('i18n_build-old_en-translation')).toBeNull();
    expect(localStorage.getItem('i18n_build-old_es-form')).toBeNull();
    expect(localStorage.getItem('i18n_en-translation')).toBeNull();
    expect(localStorage.getItem('lang')).not.toBeNull();
    expect(Object.keys(localStorage).filter((key) => key.startsWith('i18n_'))).toEqual(['i18n_build-new_en-translation']);
  });

  it('without an answer (offline) uses this build’s stored entry however old, never another build’s', async () => {
    localStorage.clear();
    const old = (hello: string) => JSON.stringify({ savedAt: Date.now() - 3 * 60 * 60 * 1000, data: { hello } });
    localStorage.setItem('i18n_build-a_pt-translation', old('Olá'));
    localStorage.setItem('i18n_build-old_nl-translation', old('Hallo'));
    const offline = async (lng: string) => {
      const instance = i18next.createInstance();
      await instance
        .use(CachedHttpBackend)
        // Port 9 on loopback: nothing listens, the fetch fails at once.
        .init({ lng, fallbackLng: false, ns: ['translation'], backend: backendOptions('http://127.0.0.1:9/locales/{{lng}}/{{ns}}.json', 60 * 60 * 1000, 'build-a'), ...LOAD_OPTIONS, maxRetries: 0 })
        .catch(() => undefined);
      return instance;
    };
    expect((await offline('pt')).t('hello')).toBe('Olá');
    expect((await offline('nl')).t('hello')).toBe('hello');
  });

  it('does not retry a file that fails to parse', async () => {
    await load('it');
    expect(attempts['/locales/it/translation.json']).toHaveLength(1);
  });
});
