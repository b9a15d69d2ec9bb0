// What every feature gets from the app: configuration and the shared plumbing.
import type { onRequestAsyncHookHandler } from 'fastify';
import type { Language } from '@parla/contract/constants';
import type { Authentication, TokenService } from './auth';
import type { Config } from './config';
import type { Database, Db } from './db/index';
import type { Mailer } from './mailer';
import type { RateLimiter } from './rate-limit';
import type { Storage } from './storage';

export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  tokens: TokenService;
  mailer: Mailer;
  storage: Storage;
  limiter: RateLimiter;
  /** onRequest hook: 401 unless the caller is signed in; sets request.auth. */
  requireUser: onRequestAsyncHookHandler;
}

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
    auth: Authentication | null;
  }
}
