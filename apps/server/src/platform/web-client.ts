// Serves the built web client (apps/web/dist) on the API's origin: the files with their brotli or
// gzip variants written at build time (apps/web/vite.config.ts), cache headers that let hashed
// assets be kept for a year and make everything else revalidate, and index.html for client
// routes (/signin, /room/1, ...).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { COOKIES } from '@parla/contract/constants';
import { negotiateLanguage } from './i18n';

/** Content-hashed bundle files (Vite's `assets/`): a new build gives new names. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * Everything else keeps its name across builds (index.html, sw.js, workbox-*.js,
 * manifest.webmanifest, /locales/*, icons): cached, but checked with the server (ETag) each time.
 */
export const REVALIDATE = 'no-cache';

export type NotFoundFallback = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;

/**
 * Registers the web client's files when `webDistDir` holds a build, and returns the not-found
 * fallback that answers client routes with index.html (for `installErrorHandling`); undefined
 * when there is no build.
 */
export async function serveWebClient(app: FastifyInstance, webDistDir: string): Promise<NotFoundFallback | undefined> {
  if (!existsSync(path.join(webDistDir, 'index.html'))) return undefined;
  const assetsDir = path.join(webDistDir, 'assets') + path.sep;
  const routePreloads = readRoutePreloads(webDistDir);

  // preCompressed: for `x`, @fastify/static sends `x.br` when Accept-Encoding allows brotli,
  // else `x.gz` when it allows gzip, else `x` (a missing variant falls through to the next),
  // with the type of `x`, `Content-Encoding` and `Vary: Accept-Encoding`. The same applies to
  // `reply.sendFile`, which this registration decorates (the fallback below uses it).
  await app.register(fastifyStatic, {
    root: webDistDir,
    prefix: '/',
    preCompressed: true,
    cacheControl: false,
    // `file` is the file actually sent, variant included (…/assets/app-abc.js.br).
    setHeaders: (reply, file) => {
      reply.header('cache-control', file.startsWith(assetsDir) ? IMMUTABLE : REVALIDATE);
      if (path.basename(file).startsWith('index.html')) {
        // The page's first request after its script is the interface translation: announced with
        // the page (a preload for the language the browser asks for, as the client picks it when
        // nothing is stored), it loads alongside the script instead of after it.
        // Not when the client says it holds them in its own cache (it would not ask for them).
        const language = negotiateLanguage(reply.request.headers['accept-language']);
        const cached = reply.request.cookies?.[COOKIES.translationsCached] !== undefined;
        const links = cached ? [] : [`</locales/${language}/translation.json>; rel=preload; as=fetch; crossorigin=anonymous`];
        // The page's own chunks too (apps/web/vite.config.ts, routePreloads): the router would
        // ask for them only once the entry has run.
        const pathname = reply.request.url.split('?')[0] ?? '/';
        const access = reply.request.cookies?.[COOKIES.access];
        const signedIn = access !== undefined;
        const route = routePreloads.find((item) => item.signedIn === signedIn && item.matcher.test(pathname));
        for (const script of route?.scripts ?? []) links.push(`<${script}>; rel=modulepreload; crossorigin`);
        for (const style of route?.styles ?? []) links.push(`<${style}>; rel=preload; as=style`);
        // The API answers the page asks for first (its captured ids filled in), fetched with the
        // page instead of after its scripts have run; the client's own fetch of the same URL
        // (same credentials mode) is then given the preloaded answer. Only for a session with
        // time left: a client about to refresh its session would be handed an answer to the old one.
        const data = route?.data ?? [];
        const match = data.length > 0 && access !== undefined && secondsLeft(access) >= DATA_PRELOAD_MIN_SECONDS ? route?.matcher.exec(pathname) : null;
        if (match) for (const url of data) links.push(`<${url.replace(/\$(\d)/g, (_, group: string) => match[Number(group)] ?? '')}>; rel=preload; as=fetch; crossorigin=use-credentials`);
        if (links.length > 0) reply.header('link', links.join(', '));
        reply.header('vary', 'Accept-Language, Cookie');
      }
    },
  });

  return (request, reply) => {
    // Client routes get the single-page app; /api, /media and missing files (a path with an
    // extension) never do.
    const pathname = request.url.split('?')[0] ?? '';
    if (request.method !== 'GET' || /^\/(api|media)(\/|$)/.test(pathname) || /\.\w+$/.test(pathname)) return undefined;
    return reply.sendFile('index.html', webDistDir);
  };
}

interface RoutePreload {
  matcher: RegExp;
  signedIn: boolean;
  scripts: string[];
  styles: string[];
  /** API addresses the page fetches at once; `$1`… stand for the pattern's captured groups. */
  data?: string[];
}

/** A session with less time left than this gets no API preloads (the client will refresh it first). */
const DATA_PRELOAD_MIN_SECONDS = 30;

/**
 * Seconds until the access token's `exp` (its payload read, not verified: this only decides
 * whether to announce preloads, which the API answers with its own checks); 0 when unreadable.
 */
function secondsLeft(token: string): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp - Date.now() / 1000 : 0;
  } catch {
    return 0;
  }
}

/** The build's table of each address's page chunks (none for a build without it). */
function readRoutePreloads(webDistDir: string): RoutePreload[] {
  const file = path.join(webDistDir, 'route-preloads.json');
  if (!existsSync(file)) return [];
  const table = JSON.parse(readFileSync(file, 'utf8')) as { pattern: string; signedIn: boolean; scripts: string[]; styles: string[]; data?: string[] }[];
  return table.map(({ pattern, ...rest }) => ({ matcher: new RegExp(pattern), ...rest }));
}
