// Every route of the spec (plus the password-reset pages), each page loaded on demand, with the
// spec's pending and preload timings and the wrong-side redirects of product.md.
import { Outlet, createRootRoute, createRoute, createRouter, lazyRouteComponent, redirect } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { DocumentTitle } from '../components/document-title';
import { OfflineBanner } from '../components/offline-banner';
import { ErrorScreen, NotFound, PendingScreen } from '../components/screens';
import { onSessionEnd } from '../lib/session-guard';
import { isSignedIn } from '../lib/stores';

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
const publicLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'public',
  beforeLoad: () => {
    if (isSignedIn()) throw redirect({ to: '/' });
  },
});

/** Protected pages send a signed-out visitor to sign in, and back here afterwards. */
const requireSignIn = ({ location }: { location: { href: string } }) => {
  if (!isSignedIn()) throw redirect({ to: '/signin', search: { access: location.href } });
};

const protectedLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'protected',
  beforeLoad: requireSignIn,
  component: lazyRouteComponent(() => import('./protected-shell'), 'ProtectedShell'),
});

const fullScreenLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'fullscreen',
  beforeLoad: requireSignIn,
  component: lazyRouteComponent(() => import('./protected-shell'), 'FullScreenShell'),
});

const signinSearch = z.object({ access: z.catch(z.optional(z.string()), undefined) });
/**
 * /chat?q=: the search of the reader's messages shown instead of the list (kept for Back from a
 * result). The router writes a text that reads as a number quoted (`?q=%22123%22`).
 */
const chatsSearch = z.object({ q: z.catch(z.optional(z.string()), undefined) });
/** /chat/{id}?message=: the message to go to once the chat is open (a search result); dropped once there. */
const chatSearch = z.object({ message: z.catch(z.optional(z.int().check(z.positive())), undefined) });

const page = <T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T & string) => lazyRouteComponent(load, name);

const routes = {
  signin: createRoute({
    getParentRoute: () => publicLayout,
    path: '/signin',
    validateSearch: signinSearch,
    component: page(() => import('../features/auth/sign-in-page'), 'SignInPage'),
  }),
  signup: createRoute({ getParentRoute: () => publicLayout, path: '/signup', component: page(() => import('../features/auth/sign-up-page'), 'SignUpPage') }),
  resend: createRoute({
    getParentRoute: () => publicLayout,
    path: '/signup/resend-activation',
    component: page(() => import('../features/auth/resend-activation-page'), 'ResendActivationPage'),
  }),
  activation: createRoute({
    getParentRoute: () => publicLayout,
    path: '/signup/activation/$activationKey',
    component: page(() => import('../features/auth/activation-page'), 'ActivationPage'),
  }),
  resetRequest: createRoute({
    getParentRoute: () => publicLayout,
    path: '/password/reset',
    component: page(() => import('../features/auth/password-reset-page'), 'PasswordResetRequestPage'),
  }),
  resetConfirm: createRoute({
    getParentRoute: () => publicLayout,
    path: '/password/reset/$uid/$token',
    component: page(() => import('../features/auth/password-reset-page'), 'PasswordResetConfirmPage'),
  }),
  home: createRoute({ getParentRoute: () => protectedLayout, path: '/', component: page(() => import('../features/home/home-page'), 'HomePage') }),
  user: createRoute({ getParentRoute: () => protectedLayout, path: '/user', component: page(() => import('../features/profile/profile-page'), 'ProfilePage') }),
  rooms: createRoute({ getParentRoute: () => protectedLayout, path: '/room', component: page(() => import('../features/rooms/room-list-page'), 'RoomsPage') }),
  room: createRoute({
    getParentRoute: () => protectedLayout,
    path: '/room/$roomId',
    component: page(() => import('../features/rooms/room-page'), 'RoomPage'),
  }),
  chats: createRoute({
    getParentRoute: () => protectedLayout,
    path: '/chat',
    validateSearch: chatsSearch,
    component: page(() => import('../features/chats/chat-list-page'), 'ChatListPage'),
  }),
  chat: createRoute({
    getParentRoute: () => protectedLayout,
    path: '/chat/$chatId',
    validateSearch: chatSearch,
    component: page(() => import('../features/chats/chat-page'), 'ChatPage'),
  }),
  call: createRoute({
    getParentRoute: () => fullScreenLayout,
    path: '/room/$roomId/connect',
    component: page(() => import('../features/rooms/call/call-page'), 'CallPage'),
  }),
};

const routeTree = rootRoute.addChildren([
  publicLayout.addChildren([routes.signin, routes.signup, routes.resend, routes.activation, routes.resetRequest, routes.resetConfirm]),
  protectedLayout.addChildren([routes.home, routes.user, routes.rooms, routes.room, routes.chats, routes.chat]),
  fullScreenLayout.addChildren([routes.call]),
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
const SIGNED_IN_LAYOUTS: readonly string[] = [protectedLayout.id, fullScreenLayout.id];
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
