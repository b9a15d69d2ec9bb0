// Loads interface translations from /locales/{lng}/{ns}.json through a localStorage cache keyed
// by the build of the locale files (entries of other builds are removed at start, so a deploy
// that changes a file is never hidden by an older copy). Retries follow the spec (section 4): a 5xx or no answer tells i18next to retry, a 4xx is a
// permanent failure, a file that does not parse is logged and not retried.
import type { BackendModule, ReadCallback } from 'i18next';

export interface CachedHttpOptions {
  loadPath: string;
  /** 0 disables the cache (development). */
  expirationTime: number;
  prefix?: string;
  /** Identifies the locale files' contents (a hash computed at build time): part of the cache key. */
  build?: string;
  /**
   * A cookie set (to the language, for as long as the cache keeps it) whenever `namespace` is
   * cached: tells the server that preloading that file with the page would be for nothing.
   */
  cachedCookie?: { name: string; namespace: string };
}

interface CacheEntry {
  savedAt: number;
  data: Record<string, unknown>;
}

export class CachedHttpBackend implements BackendModule<CachedHttpOptions> {
  static type = 'backend' as const;
  type = 'backend' as const;
  private options: CachedHttpOptions = { loadPath: '/locales/{{lng}}/{{ns}}.json', expirationTime: 0 };

  init(_services: unknown, options: CachedHttpOptions) {
    this.options = { ...this.options, ...options };
    this.removeOtherBuilds();
  }

  private get prefix() {
    return this.options.prefix ?? 'i18n_';
  }

  /** Keys of this build start with this; any other key under the prefix is stale. */
  private get buildPrefix() {
    return `${this.prefix}${this.options.build ?? ''}_`;
  }

  private key(language: string, namespace: string) {
    return `${this.buildPrefix}${language}-${namespace}`;
  }

  private removeOtherBuilds() {
    try {
      const stale: string[] = [];
      for (let index = 0; index < localStorage.length; index++) {
        const key = localStorage.key(index);
        if (key?.startsWith(this.prefix) && !key.startsWith(this.buildPrefix)) stale.push(key);
      }
      for (const key of stale) localStorage.removeItem(key);
    } catch {
      // Storage blocked: nothing cached to clean either.
    }
  }

  /** The stored entry of this build, fresh only unless `anyAge` (no network: old beats nothing). */
  private cached(language: string, namespace: string, anyAge = false): CacheEntry['data'] | undefined {
    if (!this.options.expirationTime) return undefined;
    try {
      const entry = JSON.parse(localStorage.getItem(this.key(language, namespace)) ?? 'null') as CacheEntry | null;
      if (entry && (anyAge || entry.savedAt + this.options.expirationTime > Date.now())) return entry.data;
    } catch {
      // A broken entry is simply not a cache hit.
    }
    return undefined;
  }

  private store(language: string, namespace: string, data: CacheEntry['data']) {
    if (!this.options.expirationTime) return;
    try {
      localStorage.setItem(this.key(language, namespace), JSON.stringify({ savedAt: Date.now(), data }));
      const hint = this.options.cachedCookie;
      if (hint?.namespace === namespace) {
        document.cookie = `${hint.name}=${encodeURIComponent(language)}; max-age=${Math.floor(this.options.expirationTime / 1000)}; path=/; samesite=lax`;
      }
    } catch {
      // Storage full or blocked: translations still work, only uncached.
    }
  }

  read(language: string, namespace: string, callback: ReadCallback) {
    const hit = this.cached(language, namespace);
    if (hit) return callback(null, hit);
    const url = this.options.loadPath.replace('{{lng}}', language).replace('{{ns}}', namespace);
    // i18next reads the second argument of a failure as "retry this".
    const fail = (message: string, retry: boolean) => callback(message, retry as unknown as false);
    fetch(url, { credentials: 'same-origin' })
      .then(async (response) => {
        if (!response.ok) return fail(`failed loading ${url}; status code: ${response.status}`, response.status >= 500);
        const text = await response.text();
        let data: CacheEntry['data'];
        try {
          data = JSON.parse(text) as CacheEntry['data'];
        } catch {
          console.error(`failed parsing ${url} to json`);
          return fail(`failed parsing ${url} to json`, false);
        }
        this.store(language, namespace, data);
        callback(null, data);
      })
      .catch(() => {
        // No answer (offline): the same build's translations from an earlier visit, however old.
        const stale = this.cached(language, namespace, true);
        if (stale) callback(null, stale);
        else fail(`failed loading ${url}: no answer`, true);
      });
  }
}
