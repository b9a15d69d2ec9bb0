// What every feature gets from the app: configuration and the shared plumbing.
import type { onRequestAsyncHookHandler } from 'fastify';
import type { Language } from '@parla/contract/constants';
import type { Authentication, TokenService } from './auth';
import type { Config } from './config';
import type { Database, Db } from './db/index';
import type { Mailer } from './mailer';
import type { Jobs } from './jobs';
import type { InvitationMail } from './invitations';
import type { RateLimits, UserLimits } from './rate-limit';
import type { Glossaries } from './glossary';
import type { PictureDecoder } from './images';
import type { Push } from './push';
import type { Quotas } from './quotas';
import type { Realtime } from './realtime';
import type { Storage } from './storage';
import type { Speech } from './speech/index';
import type { Translator } from './translation/index';
import type { UserDirectory } from './users';

export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  tokens: TokenService;
  mailer: Mailer;
  /** Public files (avatars), served under /media/. */
  storage: Storage;
  /** Private files (room recordings and voices, chat attachments), served only after a membership check. */
  recordings: Storage;
  limits: RateLimits;
  /** The declared per-user limits of signed-in work (messages, creations, invitations, exports, writes). */
  userLimits: UserLimits;
  /** Accounts as chats and rooms see them (and the accounts invitations make). */
  users: UserDirectory;
  invitationMail: InvitationMail;
  translator: Translator;
  speech: Speech;
  jobs: Jobs;
  realtime: Realtime;
  /** Glossaries of chats and rooms (entries, and the glossary translation takes). */
  glossaries: Glossaries;
  /** Web Push: subscriptions, the account's switch, delivery to devices with no open tab. */
  push: Push;
  /** Pictures people send, decoded one at a time within each person's budget. */
  pictures: PictureDecoder;
  /** How much each person, chat and room may store. */
  quotas: Quotas;
  /** onRequest hook: 401 unless the caller is signed in; sets request.auth. */
  requireUser: onRequestAsyncHookHandler;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared plumbing, for plugins and tests that need the database or the config. */
    ctx: AppContext;
  }
  interface FastifyRequest {
    lang: Language;
    auth: Authentication | null;
  }
}
