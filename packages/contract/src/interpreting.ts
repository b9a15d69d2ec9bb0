// Live interpreting (issue 33): what a speaker's client and the server say to each other on the
// speech stream (SPEECH_STREAM in constants.ts), and the partial captions listeners get while
// someone speaks (`segment:partial` on the live connection).
import * as z from 'zod/mini';
import { idField } from './fields';
import { LANGUAGES } from './constants';

export { SPEECH_STREAM } from './constants';

/**
 * Client → server, text messages. `end`: the client heard the utterance end (a pause, or the
 * speaker muted); `misfire`: what it sent since the last end was not speech (a cough), drop it.
 */
export const speechStreamClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('end') }),
  z.object({ type: z.literal('misfire') }),
]);
export type SpeechStreamClientMessage = z.infer<typeof speechStreamClientMessageSchema>;

/** Why the server will not recognise this speaker's stream: they upload utterances instead. */
export const SPEECH_STREAM_UNAVAILABLE = ['language', 'provider', 'capacity'] as const;
/** What was wrong with a message or a frame (it was dropped; the stream goes on). */
export const SPEECH_STREAM_ERRORS = ['invalid_message', 'frame_invalid', 'too_fast', 'quota_exceeded', 'recogniser_failed'] as const;

/**
 * Close codes of the speech stream (4000 + the HTTP status they stand for): 4401 not signed in,
 * 4403 not allowed to speak, 4404 not a participant (or no such room), 4409 the room is not Live,
 * 4429 flooded, 4503 the recogniser stopped.
 */
export const SPEECH_STREAM_CLOSE = { notAuthenticated: 4401, mayNotSpeak: 4403, notFound: 4404, notLive: 4409, flooded: 4429, unavailable: 4503 } as const;

/** Server → client, text messages. */
export type SpeechStreamServerMessage =
  /** Recognition runs: stream audio while speaking. */
  | { type: 'ready' }
  /** No recognition here for this speaker (see SPEECH_STREAM_UNAVAILABLE): upload utterances. */
  | { type: 'unavailable'; reason: (typeof SPEECH_STREAM_UNAVAILABLE)[number] }
  | { type: 'error'; code: (typeof SPEECH_STREAM_ERRORS)[number]; message: string }
  /** An utterance was stored as this segment. */
  | { type: 'stored'; segmentId: number }
  /** The recogniser is this far behind the speaker (sent while it is over SPEECH_STREAM.behindNoticeMs, and once back). */
  | { type: 'behind'; ms: number };

/**
 * `segment:partial`: the words of an utterance still being spoken, for this listener: in their
 * language and tone when `translated`, else as said (their own language, or no translation yet).
 * `state`: `speaking` while it goes on; `stored` once it is a segment (`segmentId`, which arrives as
 * `segment:created` and takes its place); `dropped` when nothing was kept (no words, a misfire).
 */
export const partialSegmentEventSchema = z.object({
  roomId: idField,
  /** Names the utterance among the room's partials (the same on every update of it). */
  utterance: z.string(),
  speaker: z.object({ id: idField, alias: z.string() }),
  language: z.enum(LANGUAGES),
  text: z.string(),
  translated: z.boolean(),
  state: z.enum(['speaking', 'stored', 'dropped']),
  segmentId: z.nullable(idField),
  /** How far recognition is behind the speaker, in ms (0 when it keeps up). */
  behindMs: z.number(),
});
export type PartialSegmentEvent = z.infer<typeof partialSegmentEventSchema>;
