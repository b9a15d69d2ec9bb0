// Loads interface translations over HTTP through a localStorage cache. Our own small chain
// instead of i18next-chained-backend, which drops the http backend's "retry" signal: the spec
// retries a 5xx or a missing status, never a 4xx.
import type { BackendModule, ReadCallback, Services } from 'i18next';
import HttpBackend from 'i18next-http-backend';

export interface CachedHttpOptions {
  loadPath: string;
  /** 0 disables the cache (development). */
  expirationTime: number;
  prefix?: string;
}

interface CacheEntry {
  savedAt: number;
  data: Record<string, unknown>;
}

export class CachedHttpBackend implements BackendModule<CachedHttpOptions> {
  static type = 'backend' as const;
  type = 'backend' as const;
  private http = new HttpBackend();
  private options: CachedHttpOptions = { loadPath: '/locales/{{lng}}/{{ns}}.json', expirationTime: 0 };

  init(services: Services, options: CachedHttpOptions) {
    this.options = { ...this.options, ...options };
    this.http.init(services, { loadPath: this.options.loadPath });
  }

  private key(language: string, namespace: string) {
    return `${this.options.prefix ?? 'i18n_'}${language}-${namespace}`;
  }

  private cached(language: string, namespace: string): CacheEntry['data'] | undefined {
    if (!this.options.expirationTime) return undefined;
    try {
      const entry = JSON.parse(localStorage.getItem(this.key(language, namespace)) ?? 'null') as CacheEntry | null;
      if (entry && entry.savedAt + this.options.expirationTime > Date.now()) return entry.data;
    } catch {
      // A broken entry is simply not a cache hit.
    }
    return undefined;
  }

  read(language: string, namespace: string, callback: ReadCallback) {
    const hit = this.cached(language, namespace);
    if (hit) return callback(null, hit);
    this.http.read(language, namespace, (error, data) => {
      if (!error && data && this.options.expirationTime) {
        try {
          localStorage.setItem(this.key(language, namespace), JSON.stringify({ savedAt: Date.now(), data }));
        } catch {
          // Storage full or blocked: translations still work, only uncached.
        }
      }
      callback(error, data);
    });
  }
}
