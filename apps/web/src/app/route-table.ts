// The web client's pages, written once: their paths, layouts, modules and first API answers. The
// router (router.tsx) builds its routes from this table, and the build (vite.config.ts) the list
// of what the server announces with index.html for each address (route-preloads.json,
// apps/server/src/platform/web-client.ts). Plain data and string functions, no React and no page
// imports: vite.config.ts reads it at build time, and the client's bundle keeps the table only.

/** A layout route: pages for signed-out visitors or signed-in ones, in a shell or none. */
export interface LayoutSpec {
  /** Whether its pages need a session (else a signed-in visitor goes home). */
  readonly signedIn: boolean;
  /** The component the pages render in (a module of LOADERS in router.tsx, from apps/web). */
  readonly shell?: { readonly module: string; readonly component: string };
}

const SHELL = 'src/app/protected-shell.tsx';

/** The layouts, by route id. */
export const LAYOUTS = {
  /** Public pages are for signed-out visitors; a signed-in one goes home. */
  public: { signedIn: false },
  /** Protected pages send a signed-out visitor to sign in, and back here afterwards. */
  protected: { signedIn: true, shell: { module: SHELL, component: 'ProtectedShell' } },
  /** As protected, the whole screen (the call). */
  fullscreen: { signedIn: true, shell: { module: SHELL, component: 'FullScreenShell' } },
} as const satisfies Record<string, LayoutSpec>;

export type LayoutName = keyof typeof LAYOUTS;

/** A page: where it shows, and what the server announces with it. */
export interface PageSpec {
  /** The router's path; `$name` is a parameter (PATH_PARAMS). */
  readonly path: string;
  readonly layout: LayoutName;
  /** The page's module, from apps/web (router.tsx's LOADERS imports it on demand). */
  readonly module: string;
  /** The component the module exports. */
  readonly component: string;
  /** The API addresses of what the page shows first, its path's parameters written `$name`. */
  readonly data?: readonly string[];
  /** false: nothing announced for its addresses (no entry in route-preloads.json). */
  readonly preload?: false;
}

/**
 * What each path parameter matches in the preload patterns: `id`, a row's id (digits), `segment`,
 * any one path segment. A parameter missing here fails the build.
 */
export const PATH_PARAMS: Readonly<Record<string, 'id' | 'segment'>> = {
  activationKey: 'segment',
  uid: 'segment',
  token: 'segment',
  chatId: 'id',
  roomId: 'id',
};

const USER = '/api/accounts/user/';

/**
 * Every route of the spec (plus the password-reset pages), each page loaded on demand; in the
 * order of route-preloads.json. Each page's chunks and styles are announced with index.html (a
 * Link header), so they load alongside the entry instead of after it has run; a signed-in page's
 * only to a request that carries the session cookie (a visitor without one is sent to sign in). A
 * module named here that no chunk serves fails the build. The pages of one module share one entry
 * (the password reset's two). `data`: the API addresses of what the page shows first, exactly as
 * it asks for them: announced too, they come with the page instead of after its scripts
 * (e2e/tests/preloads.spec.ts checks that each is used). Only those: each preload takes one of the
 * six connections a phone's browser opens, which the scripts need more than the unread counts or
 * the translator's abilities.
 */
export const PAGES = {
  signin: { path: '/signin', layout: 'public', module: 'src/features/auth/sign-in-page.tsx', component: 'SignInPage' },
  signup: { path: '/signup', layout: 'public', module: 'src/features/auth/sign-up-page.tsx', component: 'SignUpPage' },
  resend: { path: '/signup/resend-activation', layout: 'public', module: 'src/features/auth/resend-activation-page.tsx', component: 'ResendActivationPage' },
  activation: { path: '/signup/activation/$activationKey', layout: 'public', module: 'src/features/auth/activation-page.tsx', component: 'ActivationPage' },
  resetRequest: { path: '/password/reset', layout: 'public', module: 'src/features/auth/password-reset-page.tsx', component: 'PasswordResetRequestPage' },
  resetConfirm: { path: '/password/reset/$uid/$token', layout: 'public', module: 'src/features/auth/password-reset-page.tsx', component: 'PasswordResetConfirmPage' },
  // LIMITS.homeRecentRooms (home-page.tsx).
  home: { path: '/', layout: 'protected', module: 'src/features/home/home-page.tsx', component: 'HomePage', data: [USER, '/api/rooms/?limit=5'] },
  user: { path: '/user', layout: 'protected', module: 'src/features/profile/profile-page.tsx', component: 'ProfilePage', data: [USER, '/api/notifications/'] },
  // CHAT_PAGE_SIZE, MESSAGE_PAGE_SIZE (features/chats/api.ts).
  chats: { path: '/chat', layout: 'protected', module: 'src/features/chats/chat-list-page.tsx', component: 'ChatListPage', data: [USER, '/api/chat/?limit=20'] },
  chat: {
    path: '/chat/$chatId',
    layout: 'protected',
    module: 'src/features/chats/chat-page.tsx',
    component: 'ChatPage',
    data: ['/api/chat/$chatId/', '/api/chat/$chatId/member/', '/api/chat/$chatId/messages/?limit=30'],
  },
  // ROOM_PAGE_SIZE, SEGMENT_PAGE_SIZE (features/rooms/api.ts).
  rooms: { path: '/room', layout: 'protected', module: 'src/features/rooms/room-list-page.tsx', component: 'RoomsPage', data: ['/api/rooms/?limit=20&offset=0'] },
  room: {
    path: '/room/$roomId',
    layout: 'protected',
    module: 'src/features/rooms/room-page.tsx',
    component: 'RoomPage',
    data: ['/api/rooms/$roomId/', '/api/rooms/$roomId/participant/', '/api/rooms/$roomId/segments/?limit=50&offset=0'],
  },
  // Not announced, nor a root of the build's chunk plan (vite.config.ts).
  call: { path: '/room/$roomId/connect', layout: 'fullscreen', module: 'src/features/rooms/call/call-page.tsx', component: 'CallPage', preload: false },
} as const satisfies Record<string, PageSpec>;

export type PageName = keyof typeof PAGES;

type Page = (typeof PAGES)[PageName];
type Shell = (typeof LAYOUTS)[LayoutName] extends infer L ? (L extends { shell: infer S } ? S : never) : never;

/** Every module the router loads on demand: the pages' and the layouts' shells. */
export type RouteModule = Page['module'] | Shell['module'];
/** The components the table names in `module`. */
export type ComponentsOf<M extends RouteModule> = Extract<Page | Shell, { module: M }>['component'];

/** One address's entry of route-preloads.json, before the build adds its chunks and styles. */
export interface PreloadPage {
  /** A regular expression for the address's path; the `$1`… of `data` are its groups. */
  pattern: string;
  signedIn: boolean;
  /** Apps/web's modules whose chunks the address needs: the layout's shell, then the page. */
  modules: string[];
  data?: string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The `$name`s of a path or an API address. */
const PARAM = /\$([A-Za-z_]\w*)/g;

/**
 * The preload list of `pages` (PAGES), in their order: one entry per page module, at its first
 * page. A path's parameters that `data` uses are groups (`(\d+)`, numbered from the left, written
 * `$1`… in data); the others are not. Pages sharing a module share a layout and `data`, and their
 * paths extend the shortest: `^/a(/b|/c)?$`. Throws (failing the build) on anything else.
 */
export function preloadPages(pages: Readonly<Record<string, PageSpec>> = PAGES, layouts: Readonly<Record<string, LayoutSpec>> = LAYOUTS): PreloadPage[] {
  const byModule = new Map<string, PageSpec[]>();
  for (const page of Object.values(pages)) {
    if (page.preload === false) continue;
    byModule.set(page.module, [...(byModule.get(page.module) ?? []), page]);
  }
  return [...byModule.values()].map((group) => {
    const [first, ...others] = group.sort((a, b) => a.path.length - b.path.length) as [PageSpec, ...PageSpec[]];
    const layout = layouts[first.layout];
    if (!layout) throw new Error(`route table: no layout ${first.layout} (for ${first.path})`);
    for (const other of others) {
      if (other.layout !== first.layout || JSON.stringify(other.data) !== JSON.stringify(first.data)) throw new Error(`route table: ${other.path} and ${first.path} share a module, not their layout and data`);
      if (!other.path.startsWith(`${first.path}/`)) throw new Error(`route table: ${other.path} shares a module with ${first.path} without extending its path`);
    }
    const captured = new Set([...(first.data ?? [])].flatMap((url) => [...url.matchAll(PARAM)].map((match) => match[1] ?? '')));
    const groups = new Map<string, number>();
    /** The regular expression of a path's segments (`/a/$b`), capturing the parameters `data` uses. */
    const segments = (path: string, capture: boolean) =>
      path
        .split('/')
        .slice(1)
        .map((segment) => {
          if (!segment.startsWith('$')) return `/${escapeRegExp(segment)}`;
          const name = segment.slice(1);
          const kind = PATH_PARAMS[name];
          if (!kind) throw new Error(`route table: no PATH_PARAMS entry for $${name} (in ${path})`);
          const syntax = kind === 'id' ? '\\d+' : '[^/]+';
          if (!capture || !captured.has(name)) return `/${syntax}`;
          groups.set(name, groups.size + 1);
          return `/(${syntax})`;
        })
        .join('');
    const base = segments(first.path, true);
    const tails = others.map((other) => segments(other.path.slice(first.path.length), false));
    const pattern = `^${base}${tails.length > 0 ? `(${tails.join('|')})?` : ''}$`;
    const data = first.data?.map((url) =>
      url.replace(PARAM, (_, name: string) => {
        const group = groups.get(name);
        if (group === undefined) throw new Error(`route table: $${name} of ${url} is no parameter of ${first.path}`);
        return `$${group}`;
      }),
    );
    return { pattern, signedIn: layout.signedIn, modules: [...(layout.shell ? [layout.shell.module] : []), first.module], ...(data ? { data } : {}) };
  });
}
