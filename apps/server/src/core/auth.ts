// Tokens, cookies and the request authentication step (Bearer or cookie + XSRF check).
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
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
    /** The claims of a valid, unexpired token of the given type (any type when omitted), else null. */
    async verify(token: string, type?: TokenType): Promise<TokenClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const claims: TokenClaims = {
          type: payload['typ'] as TokenType,
          userId: Number(payload.sub),
          sessionId: String(payload['sid']),
          jti: String(payload.jti),
          expiresAt: new Date((payload.exp ?? 0) * 1000),
        };
        if (type && claims.type !== type) return null;
        if (!Number.isInteger(claims.userId) || !claims.sessionId) return null;
        return claims;
      } catch {
        return null;
      }
    },
    /** The XSRF token is bound to the session, so a cookie planted for another session fails. */
    xsrfFor: (sessionId: string) => hmac(`xsrf:${sessionId}`),
    /** Digest under which e-mail keys are stored. */
    digest: (value: string) => hmac(`key:${value}`),
  };
}

export type TokenService = ReturnType<typeof createTokenService>;

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
