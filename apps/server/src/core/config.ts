// Configuration from the environment, validated once at start (architecture.md names).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const optionalUrl = z.url().optional();
const positiveInt = z.coerce.number().int().positive();

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
  /** Behind a reverse proxy: trust X-Forwarded-For for the client address (rate limits). */
  TRUST_PROXY: z.enum(['true', 'false', '1', '0']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Requests per window, per key; `0` turns a limit off. Window in seconds. */
  RATE_LIMIT_LOGIN: z.coerce.number().int().min(0).default(10),
  RATE_LIMIT_LOGIN_PER_ADDRESS: z.coerce.number().int().min(0).default(50),
  RATE_LIMIT_REGISTRATION: z.coerce.number().int().min(0).default(10),
  RATE_LIMIT_EMAIL: z.coerce.number().int().min(0).default(5),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(900),
  LIVEKIT_URL: optionalUrl,
  LIVEKIT_API_KEY: z.string().optional(),
  LIVEKIT_API_SECRET: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: optionalUrl,
  TRANSLATION_MODEL: z.string().optional(),
  STT_MODEL: z.string().optional(),
  TTS_MODEL: z.string().optional(),
  APERTIUM_URL: optionalUrl,
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
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
  trustProxy: boolean;
  rateLimits: {
    windowMs: number;
    login: number;
    loginPerAddress: number;
    registration: number;
    email: number;
  };
  version: string;
}

export class ConfigError extends Error {}

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
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? new URL('../../../web/dist', import.meta.url).pathname),
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    rateLimits: {
      windowMs: env.RATE_LIMIT_WINDOW_SECONDS * 1000,
      login: env.RATE_LIMIT_LOGIN,
      loginPerAddress: env.RATE_LIMIT_LOGIN_PER_ADDRESS,
      registration: env.RATE_LIMIT_REGISTRATION,
      email: env.RATE_LIMIT_EMAIL,
    },
    version: readVersion(),
  };
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
  const pkg = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}
