// The speaker's side of live interpreting: frames held back until speech is heard, then sent
// with the half second before it (the first words are not lost), the detector's end sent after
// them; an utterance the stream could not take whole is left to the upload; a refusal for good
// leaves the stream unavailable. The browser's WebSocket is stood in for by a recorder.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSpeechStream, toPcm16 } from '../src/features/rooms/call/speech-stream';

class FakeSocket {
  static last: FakeSocket | undefined;
  static OPEN = 1;
  readyState = 0;
  binaryType = 'blob';
  sent: (string | ArrayBuffer)[] = [];
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(data: string | ArrayBuffer) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  /** The server says something. */
  say(message: object) {
    this.readyState = 1;
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

const frame = (value: number) => new Float32Array(512).fill(value);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => vi.stubGlobal('WebSocket', FakeSocket));
afterEach(() => vi.unstubAllGlobals());

describe('the speech stream', () => {
  it('writes 16-bit little-endian samples, clamped', () => {
    const view = new DataView(toPcm16([new Float32Array([0, 1, -1, 2])]));
    expect([view.getInt16(0, true), view.getInt16(2, true), view.getInt16(4, true), view.getInt16(6, true)]).toEqual([0, 32767, -32768, 32767]);
  });

  it('sends the moment before speech with it, then the end; the utterance is the server’s', async () => {
    const stream = openSpeechStream(12, async () => true);
    await settle();
    const socket = FakeSocket.last!;
    expect(socket.url).toMatch(/\/api\/rooms\/12\/speech\/$/);
    socket.say({ type: 'ready' });
    expect(stream.state).toBe('ready');
    // Silence before speech: held, not sent (20 frames: the last 16 are kept).
    for (let index = 0; index < 20; index++) stream.frame(frame(index / 100));
    expect(socket.sent).toEqual([]);
    stream.speechStart();
    expect(socket.sent).toHaveLength(1);
    expect((socket.sent[0] as ArrayBuffer).byteLength).toBe(16 * 512 * 2);
    // The first kept frame is the fifth one heard.
    expect(new DataView(socket.sent[0] as ArrayBuffer).getInt16(0, true)).toBe(Math.trunc(Math.fround(0.04) * 0x7fff));
    for (let index = 0; index < 5; index++) stream.frame(frame(0.5));
    expect(socket.sent).toHaveLength(2);
    expect(stream.speechEnd()).toBe(true);
    expect(socket.sent.slice(2)).toEqual([expect.any(ArrayBuffer), JSON.stringify({ type: 'end' })]);
    stream.close();
  });

  it('leaves an utterance to the upload when the stream was not ready at its start, or dropped midway', async () => {
    const stream = openSpeechStream(12, async () => true);
    await settle();
    const socket = FakeSocket.last!;
    stream.speechStart();
    socket.say({ type: 'ready' });
    stream.frame(frame(0.5));
    expect(stream.speechEnd()).toBe(false);
    expect(socket.sent).toEqual([]);
    // Ready from its start, but the stream went midway: uploaded too, so nothing is lost.
    stream.speechStart();
    socket.readyState = 3;
    expect(stream.speechEnd()).toBe(false);
    stream.close();
  });

  it('a refusal for good (not Live, not a participant) or no recogniser leaves uploads in charge', async () => {
    const states: string[] = [];
    const stream = openSpeechStream(12, async () => true, { state: (state) => states.push(state) });
    await settle();
    FakeSocket.last!.say({ type: 'unavailable', reason: 'language' });
    FakeSocket.last!.onclose?.({ code: 1000 });
    expect(stream.state).toBe('unavailable');
    const other = openSpeechStream(13, async () => true);
    await settle();
    FakeSocket.last!.onclose?.({ code: 4409 });
    expect(other.state).toBe('unavailable');
    stream.close();
    other.close();
  });
});
