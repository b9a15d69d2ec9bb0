// A real HTTP server on loopback standing in for the API in client unit tests: it records what
// it receives and answers what each test asks for.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void | Promise<void>;

export async function startApi(routes: Record<string, Handler>) {
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const path = (request.url ?? '').split('?')[0] ?? '';
      const handler = routes[`${request.method} ${path}`] ?? routes[path];
      if (!handler) {
        response.writeHead(404, { 'content-type': 'application/json' });
        return response.end(JSON.stringify({ type: 'client_error', errors: [{ code: 'not_found', attr: null, detail: 'Not found.' }] }));
      }
      void handler(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    count: (method: string, path: string) => seen.filter((r) => r.method === method && r.url.split('?')[0] === path).length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function json(response: ServerResponse, status: number, body: unknown, delayMs = 0) {
  setTimeout(() => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  }, delayMs);
}
