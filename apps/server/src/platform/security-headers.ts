// Security headers on every answer, from helmet: a Content-Security-Policy without inline script,
// no framing, no MIME sniffing, a same-origin referrer policy, HSTS on https. Helmet computes them
// once at start (its Fastify plugin would build them again on every request); subresources
// (scripts, styles, images, fonts, media) keep only the headers that mean something for them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** Headers that only mean something on a document (or an API answer that might be shown as one). */
const DOCUMENT_ONLY = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
/** Subresources: scripts, styles, images, fonts, media. They keep nosniff and CORP only. */
const SUBRESOURCE = /^(text\/css|(text|application)\/javascript|image\/|font\/|audio\/|video\/|application\/(wasm|font))/;

/** The origins (ws and http forms) a call's LiveKit client talks to; none without LIVEKIT_URL. */
export function livekitOrigins(livekitUrl: string | undefined): string[] {
  if (!livekitUrl) return [];
  try {
    const url = new URL(livekitUrl);
    const secure = url.protocol === 'wss:' || url.protocol === 'https:';
    return [`${secure ? 'wss' : 'ws'}://${url.host}`, `${secure ? 'https' : 'http'}://${url.host}`];
  } catch {
    return [];
  }
}

function helmetOptions(https: boolean, livekit: string[], files: string[]): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // No inline script. WebAssembly may be compiled (speech detection in the call runs a
        // model with onnxruntime's wasm); that allows no eval of JavaScript.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        // Libraries set element styles at run time; no script runs from a style.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Stored files in a bucket are shown from its signed URLs.
        imgSrc: ["'self'", 'data:', 'blob:', ...files],
        mediaSrc: ["'self'", 'blob:', ...files],
        fontSrc: ["'self'", 'data:'],
        // Same-origin API and live pushes (ws: and wss: of this origin are 'self' too), and the
        // LiveKit server of calls.
        connectSrc: ["'self'", ...livekit, ...files],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Pages carry keys in their path (/password/reset/{uid}/{token}): never send them elsewhere.
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Media of calls and avatars are same-origin; nothing to embed cross-origin yet.
    crossOriginEmbedderPolicy: false,
  };
}

/** The headers helmet sets for these options, read once from a stand-in response. */
export function securityHeaders(https: boolean, livekit: string[] = [], files: string[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(helmetOptions(https, livekit, files))({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/**
 * Sets the headers on every answer, with its `x-request-id`, in one hook. About 1 KB of document
 * headers buys nothing on a script or an image (a first visit loads some twenty of them): those
 * get the rest only. API answers are never stored by a browser or a proxy (`no-store`) unless
 * the route chose its own caching (a room's audio files under random names).
 */
export function installSecurityHeaders(app: FastifyInstance, options: { https: boolean; livekitUrl?: string | undefined; filesOrigin?: string | undefined }) {
  const all = securityHeaders(options.https, livekitOrigins(options.livekitUrl), options.filesOrigin ? [options.filesOrigin] : []);
  const forSubresources = Object.fromEntries(Object.entries(all).filter(([name]) => !DOCUMENT_ONLY.includes(name)));
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    // A route's own policy (a members' file: `default-src 'none'; sandbox`) is kept.
    const own = reply.getHeader('content-security-policy');
    reply.headers(typeof type === 'string' && SUBRESOURCE.test(type) ? forSubresources : all);
    if (own !== undefined) reply.header('content-security-policy', own);
    reply.header('x-request-id', request.id);
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
