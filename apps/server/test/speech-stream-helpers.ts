// The speech stream of a live room (issue 33) as the tests drive it: opened with a person's
// cookie from the server's own origin, its messages kept, speech sent at the pace it is spoken.
import WebSocket from 'ws';
import { SPEECH_STREAM, type SpeechStreamServerMessage } from '@parla/contract/interpreting';
import { parseWav } from '../src/domain/rendering/speech/audio';
import type { Person } from './chat-helpers';
import { fliteWav } from './crafted-audio';

export interface Stream {
  ws: WebSocket;
  messages: SpeechStreamServerMessage[];
  closed: Promise<{ code: number; reason: string }>;
  next(type: SpeechStreamServerMessage['type'], timeoutMs?: number): Promise<SpeechStreamServerMessage>;
}

/** Opens the speech stream of a room as `who`'s browser would (their cookie, this origin); kept in `streams` to be ended. */
export function openSpeechStream(server: { url: string }, streams: WebSocket[], roomId: number, who: Person | null, headers: Record<string, string> = {}): Promise<Stream> {
  const cookie = who ? [...who.client.jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  const url = `${server.url.replace(/^http/, 'ws')}${SPEECH_STREAM.path.replace('{roomId}', String(roomId))}`;
  const ws = new WebSocket(url, { headers: { ...(cookie ? { cookie } : {}), origin: server.url, ...headers } });
  streams.push(ws);
  const messages: SpeechStreamServerMessage[] = [];
  ws.on('message', (data, binary) => {
    if (!binary) messages.push(JSON.parse(String(data)) as SpeechStreamServerMessage);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  return new Promise((resolve, reject) => {
    ws.once('open', () =>
      resolve({
        ws,
        messages,
        closed,
        async next(type, timeoutMs = 10_000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const found = messages.find((message) => message.type === type);
            if (found) return found;
            if (Date.now() > deadline) throw new Error(`no ${type} in ${timeoutMs} ms; got ${JSON.stringify(messages)}`);
            await new Promise((r) => setTimeout(r, 20));
          }
        },
      }),
    );
    ws.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
    ws.once('error', reject);
  });
}

/** The 16 kHz mono samples of a WAV made by flite. */
export async function speechPcm(text: string): Promise<Buffer> {
  const wav = await fliteWav(text);
  const parsed = parseWav(wav);
  if (!parsed || parsed.sampleRate !== 16_000 || parsed.channels !== 1) throw new Error('flite did not write 16 kHz mono');
  return wav.subarray(parsed.dataOffset, parsed.dataOffset + parsed.dataLength);
}

/** Sends `pcm` in 100 ms frames at the pace it is spoken. */
export async function speak(ws: WebSocket, pcm: Buffer, onFrame?: (sentMs: number) => void) {
  const frame = 3_200;
  const started = Date.now();
  for (let at = 0; at < pcm.length; at += frame) {
    ws.send(pcm.subarray(at, at + frame));
    const sentMs = ((at + frame) / 32_000) * 1000;
    onFrame?.(sentMs);
    const wait = started + sentMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

export const silence = (ms: number) => Buffer.alloc(Math.round(ms * 32));

export async function waitFor<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`not in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
