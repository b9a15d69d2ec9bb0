// Answers preloaded with the page (Link rel=preload as=fetch, credentials included) go to the first
// fetch of the same URL in the same credentials mode. After this tab's session has ended, no call
// may be handed one: they go out in another credentials mode, which Chromium does not match to a
// preload (checked by hand in Chromium 156: 'include' took the preload, 'same-origin' went out).
import { afterEach, expect, it, vi } from 'vitest';
import { createHttp } from '../src/lib/http';
import { endSession } from '../src/lib/session-guard';
import { useTokenStore } from '../src/lib/stores';

afterEach(() => vi.restoreAllMocks());

it('asks with credentials included until the session ends, then same-origin, also once signed in again', async () => {
  const modes: (RequestCredentials | undefined)[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
    modes.push(init?.credentials);
    return new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } });
  });
  const signedIn = () => useTokenStore.setState({ accessExpiration: Date.now() + 5 * 60_000, refreshExpiration: Date.now() + 24 * 3_600_000 });
  const client = createHttp('');
  signedIn();
  expect(await client.request({ url: '/api/accounts/user/' })).toEqual({ ok: true });
  endSession();
  signedIn();
  expect(await client.request({ url: '/api/accounts/user/' })).toEqual({ ok: true });
  expect(modes).toEqual(['include', 'same-origin']);
});
