// Live-room uploads that try to outgrow their limits, against the real programs (ffprobe, ffmpeg,
// pocketsphinx, flite for speech it understands): a WAV whose header and decoder disagree on its
// length is refused; an utterance the recogniser cannot finish fails at once instead of being
// retried; and one room's backlog does not hold up another room's first utterance.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPocketsphinxProvider } from '../src/domain/rendering/speech/pocketsphinx';
import type { TranscriptionProvider } from '../src/domain/rendering/speech/provider';
import { TRANSCRIBE_QUEUE } from '../src/features/rooms/service';
import { eventually, person, type Person } from './chat-helpers';
import { alawWav, fliteWav, twoFmtWav } from './crafted-audio';
import { startServer, type TestServer } from './harness';
import { createRoom, setState, upload, uploadForm } from './room-helpers';

const LIVE = 3002;
let server: TestServer;
/** Short utterances flite speaks and pocketsphinx understands. */
let morning: Buffer;
let openWindow: Buffer;

beforeAll(async () => {
  server = await startServer({
    STT_PROVIDER: 'pocketsphinx',
    TTS_PROVIDER: 'none',
    TRANSLATION_PROVIDER: 'none',
    RATE_LIMIT_MESSAGES: '0',
    // Retries that would show (and be quick to show) if a failure of the upload were retried.
    TRANSLATION_RETRIES: '2',
    TRANSLATION_RETRY_DELAY_SECONDS: '1',
  });
  [morning, openWindow] = await Promise.all([fliteWav('Good morning everyone.'), fliteWav('Please open the window.')]);
});
afterAll(async () => {
  await server?.close();
});

async function liveRoom(owner: Person) {
  const room = await createRoom(owner, { title: 'Standup', languages: ['en', 'es'] });
  await setState(owner, room.id, LIVE);
  return room;
}

interface SegmentView {
  id: number;
  transcription: 'pending' | 'done' | 'failed' | 'none';
  transcript: string;
}

const segments = async (who: Person, roomId: number): Promise<SegmentView[]> =>
  (await who.client.get(`/api/rooms/${roomId}/segments/?limit=100`)).body.results as SegmentView[];

/** The transcription jobs of a segment as pg-boss keeps them. */
async function transcribeJobs(segmentId: number): Promise<{ state: string; retry_count: number }[]> {
  const result = await server.app.ctx.db.execute(
    sql`select state::text as state, retry_count from pgboss.job where name = ${TRANSCRIBE_QUEUE} and singleton_key = ${String(segmentId)}`,
  );
  return (result as unknown as { rows: { state: string; retry_count: number }[] }).rows;
}

describe('uploads that lie about their length', () => {
  it('refuses a WAV whose header and decoder disagree on its length, and stores nothing', async () => {
    const ana = await person(server, 'Ana');
    const room = await liveRoom(ana);

    // Two `fmt ` chunks: the old check read 0.17 s from the last, ffmpeg decodes 524 s with the first.
    const twoFormats = await upload(ana, room.id, uploadForm(twoFmtWav()));
    expect(twoFormats.status, JSON.stringify(twoFormats.body)).toBe(400);
    expect(twoFormats.body).toMatchObject({ type: 'validation_error', errors: [{ attr: 'audio', code: 'invalid_audio', detail: expect.any(String) }] });

    // One well-formed `fmt `, but 8.2 s by its header and 65 s as decoded: measured as decoded.
    const alaw = await upload(ana, room.id, uploadForm(alawWav()));
    expect(alaw.status, JSON.stringify(alaw.body)).toBe(400);
    expect(alaw.body).toMatchObject({ type: 'validation_error', errors: [{ attr: 'audio', code: 'audio_too_long', detail: expect.any(String) }] });

    expect((await ana.client.get(`/api/rooms/${room.id}/segments/`)).body.count).toBe(0);
  });
});

describe('transcription jobs', () => {
  it('fails an utterance the recogniser cannot finish at once, with one try and no retry', async () => {
    const ana = await person(server, 'Ana');
    const room = await liveRoom(ana);
    // The real recogniser, its time limit lowered so that this utterance runs into it.
    const transcription: TranscriptionProvider = server.app.ctx.speech.transcription;
    const original = transcription.transcribe;
    const strict = createPocketsphinxProvider({ timeoutMs: 100 });
    let tries = 0;
    transcription.transcribe = (utterance, language) => {
      tries++;
      return strict.transcribe(utterance, language);
    };
    try {
      const started = Date.now();
      const posted = await upload(ana, room.id, uploadForm(morning));
      expect(posted.status, JSON.stringify(posted.body)).toBe(201);
      expect(posted.body.transcription).toBe('pending');
      const [settled] = await eventually(
        () => segments(ana, room.id),
        ([segment]) => segment?.transcription !== 'pending',
        20_000,
      );
      expect(settled).toMatchObject({ id: posted.body.id, transcription: 'failed', transcript: '' });
      // Settled by the first try (a retry waits at least a second, and would leave the job in `retry`).
      expect(tries).toBe(1);
      // pg-boss records the try's end just after the segment was settled.
      const jobs = await eventually(
        () => transcribeJobs(posted.body.id),
        (rows) => rows.every((row) => row.state !== 'active'),
        5_000,
      );
      expect(jobs).toEqual([{ state: 'failed', retry_count: 0 }]);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      transcription.transcribe = original;
    }
  });

  it("transcribes another room's first utterance before finishing one room's backlog", { timeout: 50_000 }, async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const busy = await liveRoom(ana);
    const quiet = await liveRoom(ben);

    // The real recogniser, held until everything is queued (so that the order does not depend on
    // how fast this machine is), and the order in which it finishes.
    const transcription: TranscriptionProvider = server.app.ctx.speech.transcription;
    const original = transcription.transcribe;
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const finished: string[] = [];
    transcription.transcribe = async (utterance, language) => {
      await gate;
      const result = await original.call(transcription, utterance, language);
      finished.push(result.state === 'done' ? result.text : '');
      return result;
    };
    try {
      const backlog: number[] = [];
      for (let i = 0; i < 3; i++) {
        const posted = await upload(ana, busy.id, uploadForm(morning));
        expect(posted.status, JSON.stringify(posted.body)).toBe(201);
        backlog.push(posted.body.id as number);
      }
      const first = await upload(ben, quiet.id, uploadForm(openWindow));
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      open();

      const [mine] = await eventually(
        () => segments(ben, quiet.id),
        ([segment]) => segment?.transcription !== 'pending',
        40_000,
      );
      expect(mine).toMatchObject({ id: first.body.id, transcription: 'done' });
      expect(mine!.transcript).toMatch(/window/i);
      const all = await eventually(
        () => segments(ana, busy.id),
        (rows) => rows.every((segment) => segment.transcription !== 'pending'),
        40_000,
      );
      expect(all.map((segment) => segment.id)).toEqual(backlog);
      expect(all.every((segment) => segment.transcription === 'done' && /morning/i.test(segment.transcript))).toBe(true);

      // Without fairness the quiet room's utterance came after all three; with it, right after the
      // two the workers had already taken (one recognised, one waiting for the recogniser).
      const order = finished.map((text) => (/window/i.test(text) ? 'quiet' : 'busy'));
      expect(order).toEqual(['busy', 'busy', 'quiet', 'busy']);
    } finally {
      transcription.transcribe = original;
    }
  });
});
