// The build's preload list from the route table (src/app/route-table.ts): the server's patterns
// match each page's own addresses, its `data` ids filled from them, and a table it cannot express
// fails the build instead of announcing the wrong thing.
import { describe, expect, it } from 'vitest';
import { LAYOUTS, PAGES, PATH_PARAMS, preloadPages, type PageSpec } from '../src/app/route-table';

const SHELL = 'src/app/protected-shell.tsx';

/** A page's address with sample values: `12` for an id, `abc` for any other parameter. */
const address = (path: string) => path.replace(/\$(\w+)/g, (_, name: string) => (PATH_PARAMS[name] === 'id' ? '12' : 'abc'));

describe('the preload list', () => {
  it('has one entry per page module, in the table order, the call left out', () => {
    expect(preloadPages().map(({ pattern, signedIn, modules }) => ({ pattern, signedIn, modules }))).toEqual([
      { pattern: '^/signin$', signedIn: false, modules: ['src/features/auth/sign-in-page.tsx'] },
      { pattern: '^/signup$', signedIn: false, modules: ['src/features/auth/sign-up-page.tsx'] },
      { pattern: '^/signup/resend-activation$', signedIn: false, modules: ['src/features/auth/resend-activation-page.tsx'] },
      { pattern: '^/signup/activation/[^/]+$', signedIn: false, modules: ['src/features/auth/activation-page.tsx'] },
      { pattern: '^/password/reset(/[^/]+/[^/]+)?$', signedIn: false, modules: ['src/features/auth/password-reset-page.tsx'] },
      { pattern: '^/$', signedIn: true, modules: [SHELL, 'src/features/home/home-page.tsx'] },
      { pattern: '^/user$', signedIn: true, modules: [SHELL, 'src/features/profile/profile-page.tsx'] },
      { pattern: '^/chat$', signedIn: true, modules: [SHELL, 'src/features/chats/chat-list-page.tsx'] },
      { pattern: '^/chat/(\\d+)$', signedIn: true, modules: [SHELL, 'src/features/chats/chat-page.tsx'] },
      { pattern: '^/room$', signedIn: true, modules: [SHELL, 'src/features/rooms/room-list-page.tsx'] },
      { pattern: '^/room/(\\d+)$', signedIn: true, modules: [SHELL, 'src/features/rooms/room-page.tsx'] },
    ]);
  });

  it("matches each page's addresses first with its own entry, and fills its data's ids as the server does", () => {
    const list = preloadPages();
    for (const page of Object.values(PAGES) as PageSpec[]) {
      const pathname = address(page.path);
      const signedIn = LAYOUTS[page.layout].signedIn;
      // As apps/server/src/platform/web-client.ts: the first entry of the visitor's side that matches.
      const entry = list.find((item) => item.signedIn === signedIn && new RegExp(item.pattern).test(pathname));
      if (page.preload === false) {
        expect(entry, pathname).toBeUndefined();
        continue;
      }
      expect(entry?.modules.at(-1), pathname).toBe(page.module);
      const match = new RegExp(entry?.pattern ?? '').exec(pathname);
      const filled = entry?.data?.map((url) => url.replace(/\$(\d)/g, (_, group: string) => match?.[Number(group)] ?? ''));
      expect(filled, pathname).toEqual(page.data?.map(address));
    }
  });

  it('fails on a table it cannot express', () => {
    const page = (path: string, extra: Partial<PageSpec> = {}): PageSpec => ({ path, layout: 'protected', module: 'src/x.tsx', component: 'X', ...extra });
    expect(() => preloadPages({ a: page('/a/$nope') })).toThrow(/no PATH_PARAMS entry for \$nope/);
    expect(() => preloadPages({ a: page('/a', { data: ['/api/a/$chatId/'] }) })).toThrow(/\$chatId of \/api\/a\/\$chatId\/ is no parameter of \/a/);
    expect(() => preloadPages({ a: page('/a'), b: page('/a/$chatId', { data: ['/api/a/'] }) })).toThrow(/share a module, not their layout and data/);
    expect(() => preloadPages({ a: page('/a'), b: page('/b') })).toThrow(/without extending its path/);
    expect(preloadPages({ a: page('/a/$chatId/$roomId', { data: ['/api/$roomId/$chatId/'] }) })).toEqual([
      { pattern: '^/a/(\\d+)/(\\d+)$', signedIn: true, modules: [SHELL, 'src/x.tsx'], data: ['/api/$2/$1/'] },
    ]);
  });
});
