// Every route of the spec (plus the password-reset pages), each page loaded on demand, with the
// spec's pending and preload timings and the wrong-side redirects of product.md. The pages and
// layouts come from route-table.ts (which the build's preload list reads too).
import { Outlet, createRootRoute, createRoute, createRouter, lazyRouteComponent, redirect } from '@tanstack/react-router';
import type { FunctionComponent } from 'react';
import * as z from 'zod/mini';
import { DocumentTitle } from '../components/document-title';
import { OfflineBanner } from '../components/offline-banner';
import { ErrorScreen, NotFound, PendingScreen } from '../components/screens';
import { onSessionEnd } from '../lib/session-guard';
import { isSignedIn } from '../lib/stores';
import { LAYOUTS, PAGES, type ComponentsOf, type LayoutName, type PageName, type RouteModule } from './route-table';

/**
 * Each module of the route table, imported on demand (a literal `import()` each, for the build to
 * give it its chunk). A module of the table missing here, one here that the table does not name,
 * or a component the table names that its module does not export, is a type error.
 */
const LOADERS: { [M in RouteModule]: () => Promise<Record<ComponentsOf<M>, FunctionComponent>> } = {
  'src/app/protected-shell.tsx': () => import('./protected-shell'),
  'src/features/auth/sign-in-page.tsx': () => import('../features/auth/sign-in-page'),
  'src/features/auth/sign-up-page.tsx': () => import('../features/auth/sign-up-page'),
  'src/features/auth/resend-activation-page.tsx': () => import('../features/auth/resend-activation-page'),
  'src/features/auth/activation-page.tsx': () => import('../features/auth/activation-page'),
  'src/features/auth/password-reset-page.tsx': () => import('../features/auth/password-reset-page'),
  'src/features/home/home-page.tsx': () => import('../features/home/home-page'),
  'src/features/profile/profile-page.tsx': () => import('../features/profile/profile-page'),
  'src/features/chats/chat-list-page.tsx': () => import('../features/chats/chat-list-page'),
  'src/features/chats/chat-page.tsx': () => import('../features/chats/chat-page'),
  'src/features/rooms/room-list-page.tsx': () => import('../features/rooms/room-list-page'),
  'src/features/rooms/room-page.tsx': () => import('../features/rooms/room-page'),
  'src/features/rooms/call/call-page.tsx': () => import('../features/rooms/call/call-page'),
};

/** A component of the table, loaded with its module. */
const lazy = (module: RouteModule, component: string) =>
  lazyRouteComponent<Record<string, FunctionComponent>, string>(LOADERS[module], component);

const rootRoute = createRootRoute({
  component: () => (
    <>
      <DocumentTitle />
      <OfflineBanner />
      <Outlet />
    </>
  ),
  notFoundComponent: NotFound,
  errorComponent: ({ error }) => <ErrorScreen error={error} />,
});

/** Public pages are for signed-out visitors; a signed-in one goes home. */
const leaveSignedIn = () => {
  if (isSignedIn()) throw redirect({ to: '/' });
};

/** Protected pages send a signed-out visitor to sign in, and back here afterwards. */
const requireSignIn = ({ location }: { location: { href: string } }) => {
  if (!isSignedIn()) throw redirect({ to: '/signin', search: { access: location.href } });
};

/** A layout of the table: its redirect by side, and its shell. */
const layout = <L extends LayoutName>(id: L) => {
  const spec: (typeof LAYOUTS)[LayoutName] = LAYOUTS[id];
  return createRoute({
    getParentRoute: () => rootRoute,
    id,
    beforeLoad: spec.signedIn ? requireSignIn : leaveSignedIn,
    ...('shell' in spec ? { component: lazy(spec.shell.module, spec.shell.component) } : {}),
  });
};

const layouts = { public: layout('public'), protected: layout('protected'), fullscreen: layout('fullscreen') } satisfies Record<LayoutName, unknown>;

/** A page of the table (its layout, path and component), for `createRoute` with what only the router knows. */
const page = <N extends PageName>(name: N) => {
  const { path, layout: parent, module, component } = PAGES[name];
  return {
    getParentRoute: () => layouts[parent] as (typeof layouts)[(typeof PAGES)[N]['layout']],
    path: path as (typeof PAGES)[N]['path'],
    component: lazy(module, component),
  };
};

const signinSearch = z.object({ access: z.catch(z.optional(z.string()), undefined) });
/**
 * /chat?q=: the search of the reader's messages shown instead of the list (kept for Back from a
 * result). The router writes a text that reads as a number quoted (`?q=%22123%22`).
 */
const chatsSearch = z.object({ q: z.catch(z.optional(z.string()), undefined) });
/** /chat/{id}?message=: the message to go to once the chat is open (a search result); dropped once there. */
const chatSearch = z.object({ message: z.catch(z.optional(z.int().check(z.positive())), undefined) });

/** Every page of the table (a type error otherwise), as a route. */
const routes = {
  signin: createRoute({ ...page('signin'), validateSearch: signinSearch }),
  signup: createRoute(page('signup')),
  resend: createRoute(page('resend')),
  activation: createRoute(page('activation')),
  resetRequest: createRoute(page('resetRequest')),
  resetConfirm: createRoute(page('resetConfirm')),
  home: createRoute(page('home')),
  user: createRoute(page('user')),
  chats: createRoute({ ...page('chats'), validateSearch: chatsSearch }),
  chat: createRoute({ ...page('chat'), validateSearch: chatSearch }),
  rooms: createRoute(page('rooms')),
  room: createRoute(page('room')),
  call: createRoute(page('call')),
} satisfies { [N in PageName]: { path: (typeof PAGES)[N]['path'] } };

/** The pages of a layout. */
type PagesIn<L extends LayoutName> = { [N in PageName]: (typeof PAGES)[N]['layout'] extends L ? N : never }[PageName];

/** The routes of a layout's pages, in the table's order. */
const pagesIn = <L extends LayoutName>(id: L) =>
  (Object.keys(PAGES) as PageName[]).filter((name) => PAGES[name].layout === id).map((name) => routes[name]) as (typeof routes)[PagesIn<L>][];

const routeTree = rootRoute.addChildren([
  layouts.public.addChildren(pagesIn('public')),
  layouts.protected.addChildren(pagesIn('protected')),
  layouts.fullscreen.addChildren(pagesIn('fullscreen')),
]);

export const router = createRouter({
  routeTree,
  defaultPendingMs: 1000,
  defaultPendingMinMs: 500,
  defaultPreload: 'intent',
  defaultPreloadDelay: 50,
  defaultPreloadStaleTime: 30_000,
  defaultPendingComponent: PendingScreen,
  defaultNotFoundComponent: NotFound,
  scrollRestoration: true,
});

/** Ids of the layouts whose pages need a session. */
const SIGNED_IN_LAYOUTS: readonly string[] = (Object.keys(layouts) as LayoutName[]).filter((id) => LAYOUTS[id].signedIn).map((id) => layouts[id].id);
let leaving = false;

/**
 * The session ended while a protected page is shown (any 401, a refused refresh, expiries run
 * out): go to sign-in, back to this page afterwards, and say why there (history state, so the
 * address stays `/signin?access=…`). On a public page there is nothing to leave; after the
 * user's own sign-out (expiries already cleared) the sign-out goes to sign-in itself.
 */
onSessionEnd((wasSignedIn) => {
  const { location, matches } = router.state;
  if (!wasSignedIn || leaving || !matches.some((match) => SIGNED_IN_LAYOUTS.includes(match.routeId))) return;
  leaving = true;
  void router
    .navigate({ to: '/signin', search: { access: location.href }, replace: true, state: (previous) => ({ ...previous, sessionEnded: true }) })
    .finally(() => {
      leaving = false;
    });
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

declare module '@tanstack/history' {
  interface HistoryState {
    /** Set on the sign-in page's entry when a session ended under a protected page. */
    sessionEnded?: boolean;
    /** Set on a chat's or room's entry right after its creation: its page says what to do next. */
    created?: boolean;
  }
}
