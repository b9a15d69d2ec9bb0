// Configuration from the environment, validated once at start (architecture.md names).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { MESH, PRESENCE } from '@parla/contract/constants';
import type { CallIceServer } from '@parla/contract/live';
import type { S3Options } from './storage';
import { serverPaths } from './paths';

const optionalUrl = z.url().optional();
const positiveInt = z.coerce.number().int().positive();
/** What `livekit-server --dev` accepts: fine on this machine, refused for a LiveKit server elsewhere. */
const LIVEKIT_DEV_KEY = 'devkey';
const LIVEKIT_DEV_SECRET = 'secret';

const iceUrl = z.string().regex(/^(stuns?|turns?):/, 'a stun:, stuns:, turn: or turns: address');
const iceServersSchema = z.array(
  z.object({ urls: z.union([iceUrl, z.array(iceUrl).min(1)]), username: z.string().optional(), credential: z.string().optional() }).strict(),
);
const turnUrl = z.string().regex(/^turns?:[^\s,]+$/, 'a turn: or turns: address');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().min(3).default('Parla <no-reply@localhost>'),
  WEB_DIST_DIR: z.string().optional(),
  /**
   * Behind reverse proxies: how many hops of X-Forwarded-For to trust (a number; `true` = 1), or
   * the proxies' addresses (comma-separated IPs or CIDRs). `false` (default) trusts none.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, context) => {
      const text = value.trim().toLowerCase();
      if (text === '' || text === 'false') return false as const;
      if (text === 'true') return 1;
      if (/^\d+$/.test(text)) return Number(text);
      const addresses = text.split(',').map((part) => part.trim()).filter(Boolean);
      const bad = addresses.filter((part) => !isProxyAddress(part));
      if (bad.length) {
        context.addIssue({ code: 'custom', message: `must be false, a hop count, or proxy addresses/CIDRs (not ${bad.join(', ')})` });
        return z.NEVER;
      }
      return addresses;
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Requests per window, per key; `0` turns a limit off. Window in seconds. */
  /**
   * scrypt's cost for new password hashes, as log2(N): 15 and up (16..20 to make guessing dearer).
   * 10..14 only with NODE_ENV=test, where thousands of sign-ups would otherwise spend minutes hashing.
   */
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(15),
  RATE_LIMIT_LOGIN: z.coerce.number().int().min(0).default(10),
  RATE_LIMIT_LOGIN_PER_ADDRESS: z.coerce.number().int().min(0).default(50),
  RATE_LIMIT_REGISTRATION: z.coerce.number().int().min(0).default(10),
  RATE_LIMIT_EMAIL: z.coerce.number().int().min(0).default(5),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(900),
  /** How often expired sessions and e-mail keys are removed. */
  HOUSEKEEPING_INTERVAL_SECONDS: positiveInt.default(3600),
  /** Minutes a chat attachment waits to be sent with a message before it is removed. */
  UNSENT_UPLOAD_MINUTES: positiveInt.default(30),
  /** Storage quotas in MB (0: none): a person's unsent uploads, all a person stored (attachments and recordings), a chat's attachments, a room's recordings. */
  STORAGE_PENDING_MB: z.coerce.number().int().min(0).default(100),
  STORAGE_PERSON_MB: z.coerce.number().int().min(0).default(2048),
  STORAGE_CHAT_MB: z.coerce.number().int().min(0).default(4096),
  STORAGE_ROOM_MB: z.coerce.number().int().min(0).default(2048),
  /** How often work whose job was lost (a crash between storing and queueing) is queued again. */
  STALE_WORK_CHECK_SECONDS: positiveInt.default(60),
  /** The LiveKit server calls connect to (e.g. ws://localhost:7880 for `livekit-server --dev`); unset: calls without video. */
  LIVEKIT_URL: z.string().regex(/^(wss?|https?):\/\//, 'must be a ws://, wss://, http:// or https:// URL').optional(),
  /** `livekit-server --dev` accepts devkey / secret: kept only when LIVEKIT_URL is on loopback (refuseLivekitDevCredentials). */
  LIVEKIT_API_KEY: z.string().min(1).default(LIVEKIT_DEV_KEY),
  LIVEKIT_API_SECRET: z.string().min(1).default(LIVEKIT_DEV_SECRET),
  /**
   * The STUN and TURN servers of calls without LiveKit, as JSON in RTCPeerConnection's form
   * (`[{"urls":"turn:turn.example.org:3478","username":"u","credential":"p"}]`); none by default,
   * which serves people on one network (see the README for coturn, Debian's TURN server).
   */
  ICE_SERVERS: z
    .string()
    .default('[]')
    .transform((text, context) => {
      let servers: z.infer<typeof iceServersSchema>;
      try {
        servers = iceServersSchema.parse(JSON.parse(text));
      } catch {
        context.addIssue({ code: 'custom', message: 'must be a JSON list of {"urls": "stun:…" | "turn:…" | [...], "username"?, "credential"?}' });
        return z.NEVER;
      }
      // Every participant of a call is given these: a TURN server's long-term password would be
      // an open relay for anyone who can make a room (issue 31). TURN goes through TURN_URLS.
      if (servers.some((server) => server.username !== undefined || server.credential !== undefined)) {
        context.addIssue({ code: 'custom', message: 'must not hold a username or credential (each participant would get it): name a TURN server with TURN_URLS and TURN_SECRET instead' });
        return z.NEVER;
      }
      return servers;
    }),
  /**
   * A TURN server for calls without LiveKit (comma-separated turn:/turns: addresses) and the
   * shared secret of its TURN REST API (coturn's `use-auth-secret` / `static-auth-secret`): each
   * participant entering a call gets a credential of its own that expires after
   * TURN_CREDENTIAL_TTL_SECONDS.
   */
  TURN_URLS: z
    .string()
    .optional()
    .transform((text) => (text ? text.split(',').map((url) => url.trim()).filter(Boolean) : []))
    .pipe(z.array(turnUrl)),
  TURN_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  TURN_CREDENTIAL_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(14_400),
  /** How long someone whose live connection dropped keeps their place in a call (MESH.rejoinGraceMs). */
  CALL_REJOIN_GRACE_SECONDS: z.coerce.number().min(0).max(120).default(MESH.rejoinGraceMs / 1000),
  /** How long after someone's last live connection ends they are shown offline (PRESENCE.offlineGraceMs). */
  PRESENCE_OFFLINE_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(PRESENCE.offlineGraceMs / 1000),
  /** auto: openai when OPENAI_BASE_URL or OPENAI_API_KEY is set, else the offline one when installed, else none. */
  STT_PROVIDER: z.enum(['auto', 'openai', 'pocketsphinx', 'none']).default('auto'),
  TTS_PROVIDER: z.enum(['auto', 'openai', 'espeak', 'none']).default('auto'),
  /**
   * Live interpreting: auto recognises speech while it is spoken where the transcriber can
   * (pocketsphinx); realtime: through the OpenAI-compatible server's realtime transcription
   * (/v1/realtime); off: utterances are uploaded at pauses.
   */
  STT_STREAMING: z.enum(['auto', 'realtime', 'off']).default('auto'),
  /**
   * Live interpreting: a partial caption is translated at most this often (ms); by default 600
   * with Apertium (no cost), 1500 through an OpenAI-compatible server (each call is paid).
   */
  PARTIAL_TRANSLATION_MS: z.coerce.number().int().min(200).max(10_000).optional(),
  /** The model of the realtime transcription (STT_STREAMING=realtime); STT_MODEL when unset. */
  STT_REALTIME_MODEL: z.string().min(1).optional(),
  /** Speakers recognised while they speak at once (one recogniser each); past it, speakers upload. */
  STT_STREAMS_MAX: z.coerce.number().int().min(1).max(64).default(6),
  STT_MODEL: z.string().min(1).default('whisper-1'),
  TTS_MODEL: z.string().min(1).default('tts-1'),
  TTS_VOICE_MALE: z.string().min(1).default('onyx'),
  TTS_VOICE_FEMALE: z.string().min(1).default('nova'),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: optionalUrl,
  /** auto: openai when OPENAI_BASE_URL or OPENAI_API_KEY is set, else Apertium when installed, else none. */
  TRANSLATION_PROVIDER: z.enum(['auto', 'openai', 'apertium', 'none']).default('auto'),
  TRANSLATION_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** Tries after the first for a translation job, and the first retry's delay (doubled each time). */
  TRANSLATION_RETRIES: z.coerce.number().int().min(0).max(20).default(5),
  TRANSLATION_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(2),
  /** A translation try that takes longer is failed and retried (also how soon work of a crashed process is picked up again). */
  TRANSLATION_TIMEOUT_SECONDS: z.coerce.number().int().min(2).max(3600).default(120),
  /** Messages a member may post or edit per minute, and utterances a participant may upload or correct (0: no limit). */
  RATE_LIMIT_MESSAGES: z.coerce.number().int().min(0).default(60),
  /** Chats and rooms a user may create per hour. */
  RATE_LIMIT_CREATIONS: z.coerce.number().int().min(0).default(30),
  /** People a user may add to chats and rooms per hour. */
  RATE_LIMIT_INVITATIONS: z.coerce.number().int().min(0).default(60),
  /** Invitation e-mails to addresses nobody signed up with, per inviter per day (0: no limit; past it the invitation waits unmailed). */
  RATE_LIMIT_NEWCOMER_INVITATIONS: z.coerce.number().int().min(0).default(10),
  /** Megapixels of pictures (attachments, avatars) one person may have decoded per minute (0: no limit). */
  RATE_LIMIT_PICTURE_MEGAPIXELS: z.coerce.number().int().min(0).default(120),
  /** Seconds of search work one person's searches may take per minute (0: no limit). */
  RATE_LIMIT_SEARCH_SECONDS: z.coerce.number().int().min(0).default(10),
  /** Transcript downloads per user per minute. */
  RATE_LIMIT_EXPORTS: z.coerce.number().int().min(0).default(10),
  /** Message searches per user per minute. */
  RATE_LIMIT_SEARCHES: z.coerce.number().int().min(0).default(60),
  /** Public reads (status, what translation and the voices can do) and sign-outs per address per minute (0: no limit). */
  RATE_LIMIT_PUBLIC: z.coerce.number().int().min(0).default(300),
  /** Any other change (PUT, PATCH, POST, DELETE) a signed-in user may make per minute. */
  RATE_LIMIT_WRITES: z.coerce.number().int().min(0).default(120),
  /**
   * Events one live connection may send per 10 seconds (subscribe, unsubscribe, typing, and a
   * call's signals: entering a mesh of 6 sends about 5 offers and 20 network candidates at once).
   */
  RATE_LIMIT_LIVE_EVENTS: z.coerce.number().int().min(0).default(150),
  APERTIUM_URL: optionalUrl,
  /**
   * Web Push: the VAPID key pair (base64url, as web-push's generate-vapid-keys prints); unset, one
   * is generated on first start and kept in DATA_DIR/vapid.json.
   */
  VAPID_PUBLIC_KEY: z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'must be an uncompressed P-256 public key in base64url (87 characters)').optional(),
  VAPID_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a P-256 private key in base64url (43 characters)').optional(),
  /** Who push services may contact about this server's pushes (a mailto: or https: address); default: MAIL_FROM's address. */
  PUSH_CONTACT: z.string().regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: or https:// address').optional(),
  /** An S3-compatible bucket for every stored file (avatars, attachments, recordings); unset: files in DATA_DIR. */
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)').optional(),
  /** The store's address (MinIO, Ceph, Garage...); unset: AWS S3 in S3_REGION. */
  S3_ENDPOINT: z.string().regex(/^https?:\/\/\S+$/, 'must be an http:// or https:// URL').optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** The bucket in the path (most self-hosted stores) rather than in the host name; default: yes with S3_ENDPOINT. */
  S3_FORCE_PATH_STYLE: z.enum(['0', '1', 'true', 'false']).optional(),
  /** Lets push subscriptions point at loopback and private networks (a push service on the LAN, tests); off by default (request forgery). */
  PUSH_ALLOW_PRIVATE_HOSTS: z.enum(['0', '1', 'true', 'false']).default('0').transform((value) => value === '1' || value === 'true'),
})
  .superRefine(refuseLivekitDevCredentials)
  .superRefine((env, context) => {
    if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY))
      context.addIssue({ code: 'custom', path: [env.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'], message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together (or neither, for a generated pair)' });
  })
  .superRefine((env, context) => {
    if (env.TURN_URLS.length > 0 && !env.TURN_SECRET)
      context.addIssue({ code: 'custom', path: ['TURN_SECRET'], message: 'is required with TURN_URLS: the TURN server’s shared secret (coturn: static-auth-secret)' });
    if (env.TURN_SECRET && env.TURN_URLS.length === 0) context.addIssue({ code: 'custom', path: ['TURN_URLS'], message: 'is required with TURN_SECRET: the TURN server’s turn: addresses' });
  })
  .superRefine((env, context) => {
    if (env.PASSWORD_HASH_COST < 15 && env.NODE_ENV !== 'test')
      context.addIssue({ code: 'custom', path: ['PASSWORD_HASH_COST'], message: 'below 15 only for tests (NODE_ENV=test): it makes stolen hashes cheap to guess' });
  });

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  /** scrypt's log2(N) for new password hashes. */
  passwordHashCost: number;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  secretKey: string;
  databaseUrl: string | undefined;
  /** Where PGlite keeps its files when DATABASE_URL is unset ('memory://' keeps none). */
  pgliteDir: string;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  webDistDir: string;
  logLevel: Env['LOG_LEVEL'];
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses. */
  trustProxy: false | number | string[];
  rateLimits: {
    windowMs: number;
    login: number;
    loginPerAddress: number;
    registration: number;
    email: number;
    messagesPerMinute: number;
    creationsPerHour: number;
    invitationsPerHour: number;
    exportsPerMinute: number;
    searchesPerMinute: number;
    writesPerMinute: number;
    publicPerMinute: number;
    newcomerInvitationsPerDay: number;
    picturePixelsPerMinute: number;
    searchSecondsPerMinute: number;
    liveEventsPer10s: number;
  };
  housekeepingIntervalMs: number;
  staleWorkCheckMs: number;
  translationProvider: Env['TRANSLATION_PROVIDER'];
  translationRetries: { limit: number; delaySeconds: number; timeoutSeconds: number };
  openai: { apiKey: string | undefined; baseUrl: string | undefined; translationModel: string };
  apertiumUrl: string | undefined;
  livekit: { url: string | undefined; apiKey: string; apiSecret: string };
  /** Storage quotas (bytes; 0: none) and how long an unsent upload waits. */
  storage: { pendingBytes: number; personBytes: number; chatBytes: number; roomBytes: number; unsentMinutes: number };
  /** STUN servers for calls without LiveKit (no credentials). */
  iceServers: CallIceServer[];
  /** A TURN server whose credentials are made per participant (the TURN REST API); undefined: none. */
  turn: { urls: string[]; secret: string; ttlSeconds: number } | undefined;
  /** How long a call keeps the place of someone whose live connection dropped (ms). */
  callRejoinGraceMs: number;
  /** How long after someone's last live connection ends they are shown offline. */
  presenceOfflineGraceMs: number;
  /** PARTIAL_TRANSLATION_MS; undefined: by provider. */
  partialTranslationMs: number | undefined;
  speech: {
    sttProvider: Env['STT_PROVIDER'];
    ttsProvider: Env['TTS_PROVIDER'];
    streaming: Env['STT_STREAMING'];
    streamsMax: number;
    sttModel: string;
    sttRealtimeModel: string;
    ttsModel: string;
    voices: { male: string; female: string };
  };
  /** The bucket stored files live in; undefined: DATA_DIR. */
  s3: S3Options | undefined;
  push: {
    vapid: { publicKey: string; privateKey: string };
    /** The VAPID `sub`: a mailto: or https: contact. */
    contact: string;
    allowPrivateHosts: boolean;
  };
  version: string;
}

export class ConfigError extends Error {}

/** An IP address or a CIDR block (`10.0.0.0/8`, `fd00::/8`). */
function isProxyAddress(text: string): boolean {
  const [address = '', prefix, ...rest] = text.split('/');
  const version = isIP(address);
  if (!version || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** On this machine: localhost, 127.0.0.0/8 or ::1 (a URL's hostname: lower-case, IPv6 in brackets). */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost') return true;
  const version = isIP(host);
  return (version === 4 && host.startsWith('127.')) || (version === 6 && host === '::1');
}

/**
 * Anyone who knows LiveKit's development key and secret (they are in its documentation) can mint
 * tokens for every room of a server that accepts them: kept for a server on this machine
 * (`livekit-server --dev`), refused for any other.
 */
function refuseLivekitDevCredentials(
  env: { LIVEKIT_URL?: string | undefined; LIVEKIT_API_KEY: string; LIVEKIT_API_SECRET: string },
  context: z.RefinementCtx,
) {
  if (!env.LIVEKIT_URL) return;
  let hostname: string;
  try {
    hostname = new URL(env.LIVEKIT_URL).hostname;
  } catch {
    context.addIssue({ code: 'custom', path: ['LIVEKIT_URL'], message: 'must be a valid URL' });
    return;
  }
  if (isLoopbackHost(hostname)) return;
  const where = `LIVEKIT_URL (${hostname}) is not on this machine`;
  if (env.LIVEKIT_API_KEY === LIVEKIT_DEV_KEY) {
    context.addIssue({ code: 'custom', path: ['LIVEKIT_API_KEY'], message: `is the development server's "${LIVEKIT_DEV_KEY}" and ${where}: set your LiveKit server's key` });
  }
  if (env.LIVEKIT_API_SECRET === LIVEKIT_DEV_SECRET) {
    context.addIssue({ code: 'custom', path: ['LIVEKIT_API_SECRET'], message: `is the development server's default and ${where}: set your LiveKit server's secret` });
  }
}

/** Reads and checks the environment; a bad value ends with one clear line per problem. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(environment);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    env: env.NODE_ENV,
    passwordHashCost: env.PASSWORD_HASH_COST,
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    dataDir,
    secretKey: env.SECRET_KEY ?? readOrCreateSecret(dataDir),
    databaseUrl: env.DATABASE_URL,
    pgliteDir: path.join(dataDir, 'pglite'),
    redisUrl: env.REDIS_URL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    webDistDir: env.WEB_DIST_DIR ? path.resolve(env.WEB_DIST_DIR) : serverPaths.webDist,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY === 0 ? false : env.TRUST_PROXY,
    rateLimits: {
      windowMs: env.RATE_LIMIT_WINDOW_SECONDS * 1000,
      login: env.RATE_LIMIT_LOGIN,
      loginPerAddress: env.RATE_LIMIT_LOGIN_PER_ADDRESS,
      registration: env.RATE_LIMIT_REGISTRATION,
      email: env.RATE_LIMIT_EMAIL,
      messagesPerMinute: env.RATE_LIMIT_MESSAGES,
      creationsPerHour: env.RATE_LIMIT_CREATIONS,
      invitationsPerHour: env.RATE_LIMIT_INVITATIONS,
      exportsPerMinute: env.RATE_LIMIT_EXPORTS,
      searchesPerMinute: env.RATE_LIMIT_SEARCHES,
      writesPerMinute: env.RATE_LIMIT_WRITES,
      publicPerMinute: env.RATE_LIMIT_PUBLIC,
      newcomerInvitationsPerDay: env.RATE_LIMIT_NEWCOMER_INVITATIONS,
      picturePixelsPerMinute: env.RATE_LIMIT_PICTURE_MEGAPIXELS * 1_000_000,
      searchSecondsPerMinute: env.RATE_LIMIT_SEARCH_SECONDS,
      liveEventsPer10s: env.RATE_LIMIT_LIVE_EVENTS,
    },
    housekeepingIntervalMs: env.HOUSEKEEPING_INTERVAL_SECONDS * 1000,
    staleWorkCheckMs: env.STALE_WORK_CHECK_SECONDS * 1000,
    translationProvider: env.TRANSLATION_PROVIDER,
    translationRetries: { limit: env.TRANSLATION_RETRIES, delaySeconds: env.TRANSLATION_RETRY_DELAY_SECONDS, timeoutSeconds: env.TRANSLATION_TIMEOUT_SECONDS },
    openai: { apiKey: env.OPENAI_API_KEY || undefined, baseUrl: env.OPENAI_BASE_URL, translationModel: env.TRANSLATION_MODEL },
    apertiumUrl: env.APERTIUM_URL,
    livekit: { url: env.LIVEKIT_URL, apiKey: env.LIVEKIT_API_KEY, apiSecret: env.LIVEKIT_API_SECRET },
    iceServers: env.ICE_SERVERS,
    storage: {
      pendingBytes: env.STORAGE_PENDING_MB * 1024 * 1024,
      personBytes: env.STORAGE_PERSON_MB * 1024 * 1024,
      chatBytes: env.STORAGE_CHAT_MB * 1024 * 1024,
      roomBytes: env.STORAGE_ROOM_MB * 1024 * 1024,
      unsentMinutes: env.UNSENT_UPLOAD_MINUTES,
    },
    turn: env.TURN_URLS.length && env.TURN_SECRET ? { urls: env.TURN_URLS, secret: env.TURN_SECRET, ttlSeconds: env.TURN_CREDENTIAL_TTL_SECONDS } : undefined,
    callRejoinGraceMs: Math.round(env.CALL_REJOIN_GRACE_SECONDS * 1000),
    presenceOfflineGraceMs: Math.round(env.PRESENCE_OFFLINE_GRACE_SECONDS * 1000),
    partialTranslationMs: env.PARTIAL_TRANSLATION_MS,
    speech: {
      sttProvider: env.STT_PROVIDER,
      ttsProvider: env.TTS_PROVIDER,
      streaming: env.STT_STREAMING,
      streamsMax: env.STT_STREAMS_MAX,
      sttModel: env.STT_MODEL,
      sttRealtimeModel: env.STT_REALTIME_MODEL ?? env.STT_MODEL,
      ttsModel: env.TTS_MODEL,
      voices: { male: env.TTS_VOICE_MALE, female: env.TTS_VOICE_FEMALE },
    },
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION,
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
          forcePathStyle: env.S3_FORCE_PATH_STYLE === undefined ? Boolean(env.S3_ENDPOINT) : env.S3_FORCE_PATH_STYLE === '1' || env.S3_FORCE_PATH_STYLE === 'true',
        }
      : undefined,
    push: {
      vapid: env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY } : readOrCreateVapidKeys(dataDir),
      contact: env.PUSH_CONTACT ?? `mailto:${/<([^>]+)>/.exec(env.MAIL_FROM)?.[1] ?? env.MAIL_FROM}`,
      allowPrivateHosts: env.PUSH_ALLOW_PRIVATE_HOSTS,
    },
    version: readVersion(),
  };
}

/** VAPID keys unset: a P-256 pair is generated on first start and kept in DATA_DIR (subscriptions are bound to it). */
function readOrCreateVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  const file = path.join(dataDir, 'vapid.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const keys = {
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).subarray(-65).toString('base64url'),
    privateKey: String(privateKey.export({ format: 'jwk' }).d),
  };
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

/** SECRET_KEY unset: one is generated on first start and kept in DATA_DIR. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function readVersion(): string {
  return (JSON.parse(readFileSync(serverPaths.packageJson, 'utf8')) as { version: string }).version;
}
