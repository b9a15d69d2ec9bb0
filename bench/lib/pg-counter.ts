// A counting relay between a server under test and PostgreSQL: it forwards the bytes untouched
// both ways and reads the client's side of the wire protocol to note, with the bench's clock, each
// round trip the server asks for (a simple Query 'Q', or a Sync 'S' ending an extended-protocol
// batch: Parse/Bind/Execute) and each Parse 'P' (a statement planned again rather than reused).
// Only for counting: the relay adds a hop, so figures of a server behind it are not latency figures.
import net from 'node:net';
import { performance } from 'node:perf_hooks';

export interface WireEvent {
  at: number;
  kind: 'round-trip' | 'parse';
  connection: number;
  /** The statement: a Query's text, or for a Sync the text parsed in its batch ('(prepared <name>)' when it bound one parsed before). */
  sql: string;
}

export interface PgCounter {
  /** The database URL to give the server (same database, through the relay). */
  url: string;
  events: WireEvent[];
  /** Round trips and parses between two instants of the bench's clock. */
  count(from: number, to: number): { roundTrips: number; parses: number };
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

export async function startPgCounter(databaseUrl: string): Promise<PgCounter> {
  const target = new URL(databaseUrl);
  const host = target.hostname || '127.0.0.1';
  const port = Number(target.port || 5432);
  const events: WireEvent[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;

  const server = net.createServer((client) => {
    const connection = ++connections;
    const upstream = net.connect(port, host);
    sockets.add(client);
    sockets.add(upstream);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    let pending: Buffer = Buffer.alloc(0);
    let startup = true;
    let batch = '';
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      const at = performance.now();
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (startup) {
          if (pending.length < 8) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          const code = pending.readInt32BE(4);
          pending = pending.subarray(length);
          if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) startup = false;
          continue;
        }
        if (pending.length < 5) break;
        const type = String.fromCharCode(pending[0]!);
        const length = pending.readInt32BE(1);
        if (pending.length < 1 + length) break;
        const body = pending.subarray(5, 1 + length);
        const cstring = (from: number) => {
          const end = body.indexOf(0, from);
          return body.toString('utf8', from, end < 0 ? body.length : end);
        };
        if (type === 'Q') events.push({ at, kind: 'round-trip', connection, sql: cstring(0) });
        else if (type === 'P') {
          const name = cstring(0);
          batch = cstring(Buffer.byteLength(name) + 1);
          events.push({ at, kind: 'parse', connection, sql: batch });
        } else if (type === 'B' && !batch) {
          const portal = cstring(0);
          batch = `(prepared ${cstring(Buffer.byteLength(portal) + 1)})`;
        } else if (type === 'S') {
          events.push({ at, kind: 'round-trip', connection, sql: batch });
          batch = '';
        }
        pending = pending.subarray(1 + length);
      }
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.toString(),
    events,
    count(from, to) {
      let roundTrips = 0;
      let parses = 0;
      for (const event of events) {
        if (event.at < from || event.at >= to) continue;
        if (event.kind === 'round-trip') roundTrips++;
        else parses++;
      }
      return { roundTrips, parses };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
