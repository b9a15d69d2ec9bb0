// A real Socket.IO server on loopback for the live client's tests (src/lib/live.ts): each test
// file says what its server does with a connection; the client is pointed at it by the file's
// own mock of socket.io-client (vi.mock is hoisted per file).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type ServerOptions, type Socket } from 'socket.io';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { LIVE_PATH } from '@parla/contract/constants';
import type { ClientToServerEvents, ServerToClientEvents } from '@parla/contract/live';
import { useTokenStore } from '../src/lib/stores';

export type TestServerSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

/**
 * Starts the server before the file's tests (its address into `target.url`) and stops it after;
 * before each test the client is signed in with a fresh access token, so its session check
 * passes without a request.
 */
export function useLiveServer(target: { url: string }, onConnection: (socket: TestServerSocket) => void, options: Partial<ServerOptions> = {}) {
  const httpServer = createServer();
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, { path: LIVE_PATH, ...options });
  beforeAll(async () => {
    io.on('connection', onConnection);
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    target.url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await io.close();
  });
  beforeEach(() => {
    useTokenStore.setState({ accessExpiration: Date.now() + 60_000, refreshExpiration: Date.now() + 3_600_000 });
  });
  return io;
}

/** Waits until `check` holds (polling every 20 ms), or fails after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
