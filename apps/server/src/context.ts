// What every feature gets from the app: configuration and the shared plumbing.
import type { onRequestAsyncHookHandler } from 'fastify';
import type { Language } from '@parla/contract/constants';
import type { Authentication, TokenService } from './platform/auth';
import type { Config } from './platform/config';
import type { Database, Db } from './platform/db/index';
import type { Mailer } from './platform/mailer';
import type { Jobs } from './platform/jobs';
import type { InvitationMail } from './domain/invitations/invitations';
import type { RateLimits, UserLimits } from './platform/rate-limit';
import type { Glossaries } from './domain/glossary/glossary';
import type { PictureDecoder } from './platform/images';
import type { Push } from './domain/delivery/push';
import type { Quotas } from './platform/quotas';
import type { Realtime } from './platform/realtime';
import type { Storage } from './platform/storage';
import type { Speech } from './domain/rendering/speech/index';
import type { Translator } from './domain/rendering/translation/index';
import type { UserDirectory } from './domain/people/users';
import type { PrivacySettings } from './domain/people/privacy';
import type { Presence } from './domain/delivery/presence';

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
  /** What others see of a person (read receipts, presence), and who follows a change of it. */
  privacy: PrivacySettings;
  /** Who is online, away or offline, across processes. */
  presence: Presence;
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
