// Raw HTTP for the guard: node:http sends paths, headers and bodies exactly as given (fetch would
// normalise "../", refuse some headers and add its own), one connection per request so that one
// answer's connection handling cannot spoil the next request.
import http from 'node:http';

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body (up to 64 KB of it). */
  body: string;
}

export type Sent = { answer: RawAnswer; error?: undefined } | { answer?: undefined; error: string };

const KEEP = 64 * 1024;

export function send(base: URL, request: RawRequest, timeoutMs: number): Promise<Sent> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (sent: Sent) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(sent);
    };
    const headers: Record<string, string> = { ...request.headers, connection: 'close' };
    if (request.body !== undefined) headers['content-length'] = String(request.body.length);
    const outgoing = http.request(
      { host: base.hostname, port: base.port, method: request.method, path: request.path, headers, agent: false, insecureHTTPParser: false },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < KEEP) chunks.push(chunk);
          kept += chunk.length;
        });
        response.on('end', () =>
          finish({ answer: { status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).subarray(0, KEEP).toString('utf8') } }),
        );
        response.on('aborted', () => finish({ error: `answer cut off after status ${response.statusCode}` }));
        response.on('error', (error: NodeJS.ErrnoException) => finish({ error: `answer cut off after status ${response.statusCode}: ${error.code ?? error.message}` }));
      },
    );
    const timer = setTimeout(() => {
      finish({ error: `no answer within ${timeoutMs / 1000} s` });
      outgoing.destroy();
    }, timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // The server may answer early (a body over the limit) and close while the body is still
      // being written; give the answer a moment to be read before calling it a dropped connection.
      setTimeout(() => finish({ error: `connection failed: ${error.code ?? error.message}` }), 200);
    });
    outgoing.end(request.body);
  });
}
