// Tokens, cookies and the request authentication step (Bearer or cookie + XSRF check).
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT } from 'jose';
import { COOKIES, SESSION, XSRF_HEADER } from '@parla/contract/constants';
import { csrfFailed, notAuthenticated, tokenInvalid } from './errors';

export type TokenType = 'access' | 'refresh';

export interface TokenClaims {
  type: TokenType;
  userId: number;
  sessionId: string;
  /** Rotation id of a refresh token. */
  jti: string;
  expiresAt: Date;
}

export interface Authentication {
  userId: number;
  sessionId: string;
  via: 'bearer' | 'cookie';
}

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function createTokenService(secretKey: string) {
  const key = new TextEncoder().encode(secretKey);
  const hmac = (value: string) => createHmac('sha256', secretKey).update(value).digest('base64url');
  /** Tokens whose signature was checked, oldest first (a Map keeps insertion order). */
  const verifiedTokens = new Map<string, TokenClaims>();

  async function sign(type: TokenType, userId: number, sessionId: string, lifetimeMs: number, jti: string = randomUUID()): Promise<IssuedToken> {
    const expiresAt = new Date(Date.now() + lifetimeMs);
    const token = await new SignJWT({ typ: type, sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(key);
    // The token's own expiry has second precision; report exactly that.
    return { token, expiresAt: new Date(Math.floor(expiresAt.getTime() / 1000) * 1000) };
  }

  return {
    signAccess: (userId: number, sessionId: string) => sign('access', userId, sessionId, SESSION.accessLifetimeMs),
    signRefresh: (userId: number, sessionId: string, jti: string) =>
      sign('refresh', userId, sessionId, SESSION.refreshLifetimeMs, jti),
    /**
     * The claims of a valid, unexpired token of the given type (any type when omitted), else null.
     * Checked with node:crypto rather than jose: this runs on every request, and an HMAC and two
     * JSON.parse calls cost a tenth of jose's asynchronous WebCrypto verification.
     */
    verify(token: string, type?: TokenType): Promise<TokenClaims | null> {
      // A signature checked once stays checked (the token is immutable); expiry and type are
      // checked on every use, and revocation by the caller against the database.
      let claims = verifiedTokens.get(token);
      if (claims === undefined) {
        claims = verifyHs256(token, secretKey) ?? undefined;
        if (claims) {
          if (verifiedTokens.size >= VERIFIED_CACHE_SIZE) verifiedTokens.delete(verifiedTokens.keys().next().value!);
          verifiedTokens.set(token, claims);
        }
      }
      if (!claims || claims.expiresAt.getTime() <= Date.now() || (type && claims.type !== type)) return Promise.resolve(null);
      return Promise.resolve(claims);
    },
    /** The XSRF token is bound to the session, so a cookie planted for another session fails. */
    xsrfFor: (sessionId: string) => hmac(`xsrf:${sessionId}`),
    /** Digest under which e-mail keys are stored. */
    digest: (value: string) => hmac(`key:${value}`),
  };
}

export type TokenService = ReturnType<typeof createTokenService>;

const VERIFIED_CACHE_SIZE = 10_000;

const decodeJson = (part: string): Record<string, unknown> | null => {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** Verifies a compact HS256 JWT as signed by `sign` above: signature, algorithm, expiry, claims. */
function verifyHs256(token: string, secretKey: string, type?: TokenType): TokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header = '', body = '', signature = ''] = parts;
  const expected = createHmac('sha256', secretKey).update(`${header}.${body}`).digest('base64url');
  if (!equal(signature, expected)) return null;
  if (decodeJson(header)?.['alg'] !== 'HS256') return null;
  const payload = decodeJson(body);
  if (!payload) return null;
  const now = Date.now() / 1000;
  const exp = payload['exp'];
  if (typeof exp !== 'number' || exp <= now) return null;
  if (typeof payload['nbf'] === 'number' && payload['nbf'] > now) return null;
  const claims: TokenClaims = {
    type: payload['typ'] as TokenType,
    userId: Number(payload['sub']),
    sessionId: String(payload['sid'] ?? ''),
    jti: String(payload['jti'] ?? ''),
    expiresAt: new Date(exp * 1000),
  };
  if (claims.type !== 'access' && claims.type !== 'refresh') return null;
  if (type && claims.type !== type) return null;
  if (!Number.isInteger(claims.userId) || claims.userId <= 0 || !claims.sessionId) return null;
  return claims;
}

function equal(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Finds who is calling. Bearer tokens need no CSRF check; cookie sessions must echo the
 * XSRF cookie in the X-XSRF-TOKEN header on unsafe methods.
 */
export async function authenticateRequest(
  request: FastifyRequest,
  tokens: TokenService,
  isSessionActive: (sessionId: string, userId: number) => Promise<boolean>,
): Promise<Authentication> {
  const header = request.headers.authorization;
  let token: string | undefined;
  let via: Authentication['via'];
  if (header?.toLowerCase().startsWith('bearer ')) {
    token = header.slice(7).trim();
    via = 'bearer';
  } else {
    token = request.cookies[COOKIES.access];
    via = 'cookie';
  }
  if (!token) throw notAuthenticated();
  const claims = await tokens.verify(token, 'access');
  if (!claims || !(await isSessionActive(claims.sessionId, claims.userId))) throw tokenInvalid();
  if (via === 'cookie' && !SAFE_METHODS.has(request.method)) checkXsrf(request, tokens, claims.sessionId);
  return { userId: claims.userId, sessionId: claims.sessionId, via };
}

export function checkXsrf(request: FastifyRequest, tokens: TokenService, sessionId: string): void {
  const sent = request.headers[XSRF_HEADER.toLowerCase()];
  const cookie = request.cookies[COOKIES.xsrf];
  const expected = tokens.xsrfFor(sessionId);
  if (typeof sent !== 'string' || !cookie || !equal(sent, cookie) || !equal(sent, expected)) throw csrfFailed();
}

export function setSessionCookies(
  reply: FastifyReply,
  options: { secure: boolean; access: IssuedToken; refresh: IssuedToken; xsrf: string },
): void {
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: options.secure };
  reply.setCookie(COOKIES.access, options.access.token, { ...base, path: '/', expires: options.access.expiresAt });
  reply.setCookie(COOKIES.refresh, options.refresh.token, {
    ...base,
    path: '/api/accounts/',
    expires: options.refresh.expiresAt,
  });
  // Readable by the page on purpose: the client echoes it in X-XSRF-TOKEN.
  reply.setCookie(COOKIES.xsrf, options.xsrf, {
    httpOnly: false,
    sameSite: 'lax',
    secure: options.secure,
    path: '/',
    expires: options.refresh.expiresAt,
  });
}

export function clearSessionCookies(reply: FastifyReply): void {
  reply.clearCookie(COOKIES.access, { path: '/' });
  reply.clearCookie(COOKIES.refresh, { path: '/api/accounts/' });
  reply.clearCookie(COOKIES.xsrf, { path: '/' });
}
