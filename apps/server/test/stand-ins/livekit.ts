// A stand-in for a LiveKit server's RoomService (Twirp over HTTP, JSON bodies), for tests only:
// no LiveKit server can be installed here, and the product talks to this one through
// livekit-server-sdk's RoomServiceClient exactly as it would to livekit-server. It answers
// RemoveParticipant and DeleteRoom as LiveKit does after checking what LiveKit checks: the bearer
// JWT signed with the configured key and secret (TokenVerifier), RemoveParticipant with the
// roomAdmin grant for the body's room, DeleteRoom with the roomCreate grant. Every call is
// recorded (refused ones apart, with the reason); failures and delays can be ordered.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TokenVerifier, type ClaimGrants } from 'livekit-server-sdk';

export interface LivekitCall {
  /** The Twirp method: `RemoveParticipant`, `DeleteRoom`... */
  method: string;
  /** The JSON body the SDK sent (`{ room, identity }`, `{ room }`). */
  body: Record<string, unknown>;
  /** The verified claims of the call's bearer token. */
  claims: ClaimGrants;
  /** When it arrived (Date.now()). */
  at: number;
}

export interface RefusedCall {
  path: string;
  reason: string;
}

export interface LivekitStandIn {
  /** For LIVEKIT_URL: the ws:// form, as a deployment would write it. */
  url: string;
  calls: LivekitCall[];
  refused: RefusedCall[];
  /** Every call answers 500 (after being recorded) until called with false. */
  failAlways(on: boolean): void;
  /** Answers wait this long (a LiveKit server that hangs). */
  delay(ms: number): void;
  /** The first call matching `match` (waiting up to `timeoutMs` for it). */
  waitFor(match: (call: LivekitCall) => boolean, timeoutMs?: number): Promise<LivekitCall>;
  close(): Promise<void>;
}

const twirpError = (response: ServerResponse, status: number, code: string, msg: string) => {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ code, msg }));
};

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** What LiveKit's RoomService asks of a call's token, per method (livekit-server's roomservice.go). */
function permissionProblem(method: string, body: Record<string, unknown>, claims: ClaimGrants): string | undefined {
  const video = claims.video ?? {};
  switch (method) {
    case 'RemoveParticipant':
      if (typeof body.room !== 'string' || typeof body.identity !== 'string') return 'room and identity are required';
      if (!video.roomAdmin) return 'no roomAdmin grant';
      if (video.room !== body.room) return `roomAdmin grant for ${String(video.room)}, not ${body.room}`;
      return undefined;
    case 'DeleteRoom':
      if (typeof body.room !== 'string') return 'room is required';
      if (!video.roomCreate) return 'no roomCreate grant';
      return undefined;
    default:
      return `${method} is not answered by this stand-in`;
  }
}

export async function startLivekitStandIn(credentials: { apiKey: string; apiSecret: string }): Promise<LivekitStandIn> {
  const verifier = new TokenVerifier(credentials.apiKey, credentials.apiSecret);
  const calls: LivekitCall[] = [];
  const refused: RefusedCall[] = [];
  const waiters = new Set<() => void>();
  let failing = false;
  let delayMs = 0;

  const server = createServer((request, response) => {
    void (async () => {
      const path = request.url ?? '';
      const match = /^\/twirp\/livekit\.RoomService\/(\w+)$/.exec(path);
      if (request.method !== 'POST' || !match) return twirpError(response, 404, 'bad_route', `no handler for ${request.method} ${path}`);
      const method = match[1]!;
      const body = await readJson(request);
      const refuse = (status: number, code: string, reason: string) => {
        refused.push({ path, reason });
        twirpError(response, status, code, reason);
      };
      if (!body) return refuse(400, 'malformed', 'the body is not JSON');
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!bearer) return refuse(401, 'unauthenticated', 'no bearer token');
      let claims: ClaimGrants;
      try {
        claims = await verifier.verify(bearer);
      } catch (error) {
        return refuse(401, 'unauthenticated', `token refused: ${(error as Error).message}`);
      }
      const problem = permissionProblem(method, body, claims);
      if (problem) return refuse(403, 'permission_denied', problem);
      calls.push({ method, body, claims, at: Date.now() });
      for (const wake of waiters) wake();
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (failing) return twirpError(response, 500, 'internal', 'the stand-in was told to fail');
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    })().catch((error: unknown) => {
      if (!response.headersSent) twirpError(response, 500, 'internal', String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `ws://127.0.0.1:${port}`,
    calls,
    refused,
    failAlways: (on) => {
      failing = on;
    },
    delay: (ms) => {
      delayMs = ms;
    },
    async waitFor(matching, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = calls.find(matching);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no such LiveKit call in ${timeoutMs} ms; calls: ${JSON.stringify(calls.map((c) => [c.method, c.body]))}; refused: ${JSON.stringify(refused)}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, Math.min(left, 200));
          waiters.add(wake);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
