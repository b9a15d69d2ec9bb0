// One speaker's speech stream (issue 33): the audio frames their browser sends while they speak,
// checked (size, pace, their participation on every frame), fed to their own recogniser, its
// words so far rendered for every listener as partial captions, and each utterance it ends stored
// as a segment (its audio, its transcript) and rendered as an uploaded one is. What the speaker
// said is kept until the recogniser has ended it: a slow recogniser falls behind (listeners are
// told how far) and catches up, and closing the stream (the speaker muted, left the call) ends the
// last utterance instead of losing it.
import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import { LIMITS, SPEECH_STREAM, type Domain, type Language } from '@parla/contract/constants';
import { speechStreamClientMessageSchema, SPEECH_STREAM_CLOSE, type PartialSegmentEvent, type SpeechStreamServerMessage } from '@parla/contract/interpreting';
import type { FastifyBaseLogger } from 'fastify';
import { createPartialRendering, type PartialRendering, type PartialText } from '../../../domain/rendering/partial';
import { textKey, type ListenerGroup } from '../../../domain/rendering/reader-group';
import { STREAM_BYTES_PER_MS, type Recognition, type StreamingTranscriber } from '../../../domain/rendering/speech/streaming';
import type { Translator } from '../../../domain/rendering/translation/index';
import type { TranslationGlossary } from '../../../domain/rendering/translation/provider';
import type { ParticipantRow, SegmentRow } from '../repository';

/** How often a speaker's participation is read again while frames come (a removal elsewhere cuts the stream within it). */
export const GATE_RECHECK_MS = 1_000;
/** Audio kept before the recogniser's start of an utterance (its first sound). */
const LEAD_MS = 300;
/** How long a closing stream waits for its last utterance to be recognised. */
const LAST_WORDS_MS = 15_000;

export type Gate = { participant: ParticipantRow; room: { domain: string } } | 'not_found' | 'may_not_speak' | 'not_live';

export interface SpeakerStreamDeps {
  transcriber: StreamingTranscriber | null;
  translator: Translator;
  /** How often a partial is translated at most (ms; PARTIAL_TRANSLATION_MS). */
  partialEveryMs: number;
  gate(roomId: number, userId: number): Promise<Gate>;
  store(roomId: number, userId: number, utterance: { pcm: Buffer; transcript: string; endedAt: Date }): Promise<SegmentRow | undefined>;
  captionsContext(roomId: number): Promise<{ groups: ListenerGroup[]; glossary: TranslationGlossary }>;
  pushPartial(roomId: number, groups: readonly ListenerGroup[], view: (group: ListenerGroup) => PartialSegmentEvent): void;
  /** Streams of this process by room, so a removal or an ending cuts them at once (speech-streams.ts). */
  register(roomId: number, participantId: number, stream: { cut(code: number): void }): () => void;
  log: FastifyBaseLogger;
}

const CLOSE_FOR: Record<Exclude<Gate, object>, number> = {
  not_found: SPEECH_STREAM_CLOSE.notFound,
  may_not_speak: SPEECH_STREAM_CLOSE.mayNotSpeak,
  not_live: SPEECH_STREAM_CLOSE.notLive,
};

/** The words of the utterance being spoken, as listeners see them. */
interface Partial {
  id: string;
  rendering: PartialRendering;
}

/** A chunk of the stream's audio and when it arrived. */
interface Chunk {
  atMs: number;
  pcm: Buffer;
  receivedAt: number;
}

export async function runSpeakerStream(socket: WebSocket, roomId: number, userId: number, deps: SpeakerStreamDeps): Promise<void> {
  const { log } = deps;
  const send = (message: SpeechStreamServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  // Frames that come while the first checks run wait for them, in order.
  const early: { data: Buffer; binary: boolean }[] = [];
  const onEarly = (data: Buffer, binary: boolean) => void early.push({ data, binary });
  socket.on('message', onEarly);

  let gate = await deps.gate(roomId, userId).catch((error: unknown) => {
    log.error({ err: error, roomId }, 'a speech stream could not be checked');
    return 'not_found' as const;
  });
  if (typeof gate === 'string') return socket.close(CLOSE_FOR[gate], gate);
  const { participant } = gate;
  const language = participant.language as Language;
  const transcriber = deps.transcriber;
  if (!transcriber || !transcriber.canStream(language)) {
    send({ type: 'unavailable', reason: transcriber ? 'language' : 'provider' });
    return socket.close(1000, 'unavailable');
  }
  if (socket.readyState !== socket.OPEN) return;

  let checkedAt = Date.now();
  let checking: Promise<void> | undefined;
  let closed = false;
  /** Cut from outside (removed, the room ended): nothing more of this stream reaches anyone. */
  let cutOff = false;
  /** Audio of the stream not yet part of a stored utterance. */
  let chunks: Chunk[] = [];
  let streamMs = 0;
  /** Audio since the recogniser's last end of an utterance (ms), to cut one that runs past the longest segment. */
  let sinceEndMs = 0;
  let cutAsked = false;
  let misfire = false;
  let partial: Partial | undefined;
  const domain = gate.room.domain;
  let lastBehindNotice = 0;
  let finals: Promise<void> = Promise.resolve();
  /** Every listening group of the room (voices apart: the pushes go to each group's live room), read again every 5 s. */
  let captions: { at: number; value: Promise<{ groups: ListenerGroup[]; glossary: TranslationGlossary }> } | undefined;
  let listeningGroups: ListenerGroup[] = [];
  const captionsContext = () => {
    if (!captions || Date.now() - captions.at > 5_000) {
      const value = deps.captionsContext(roomId);
      value.then(
        (context) => void (listeningGroups = context.groups),
        () => void (captions = undefined),
      );
      captions = { at: Date.now(), value };
    }
    return captions.value;
  };
  void captionsContext().catch(() => undefined);

  // The pace: a bucket of audio time, filled at SPEECH_STREAM.rateFactor × real time up to burstMs.
  let allowanceMs: number = SPEECH_STREAM.burstMs;
  let filledAt = Date.now();
  let refused = 0;
  let refusedSince = Date.now();
  let lastRefusalNotice = 0;

  /** How far the speaker's recogniser is behind, once it is open. */
  let recognitionBehind = () => 0;
  const behindMs = () => Math.round(recognitionBehind());
  const view = (id: string, shown: PartialText, state: PartialSegmentEvent['state'], segmentId: number | null): PartialSegmentEvent => ({
    roomId,
    utterance: id,
    speaker: { id: participant.id, alias: participant.alias },
    language,
    text: shown.text,
    translated: shown.translated,
    state,
    segmentId,
    behindMs: behindMs(),
  });

  function newPartial() {
    const id = `${participant.id}-${randomBytes(6).toString('hex')}`;
    const rendering = createPartialRendering<ListenerGroup>(language, deps.partialEveryMs, {
      provider: deps.translator.provider,
      groups: async () => (await captionsContext()).groups,
      translate: (request) => deps.translator.translateThen(request),
      glossary: async () => (await captionsContext()).glossary,
      domain: domain as Domain,
      push: (shown) => {
        const groups = listeningGroups.filter((group) => shown.has(textKey(group)));
        deps.pushPartial(roomId, groups, (group) => view(id, shown.get(textKey(group))!.shown, 'speaking', null));
      },
      failed: (error) => log.warn({ err: error, roomId }, 'a partial caption could not be translated'),
    });
    return { id, rendering };
  }

  /** Ends a partial in every listener's view: `stored` (the segment takes its place) or `dropped`. */
  async function settlePartial(ending: Partial | undefined, state: 'stored' | 'dropped', segmentId: number | null) {
    if (!ending) return;
    await ending.rendering.stop();
    deps.pushPartial(roomId, listeningGroups, () => view(ending.id, { text: '', translated: false }, state, segmentId));
    log.debug({ roomId, utterance: ending.id, partialCalls: ending.rendering.calls, state }, 'an utterance ended');
  }

  /** The audio between two stream times (ms), from the chunks kept; chunks before `toMs` are let go. */
  function takeAudio(fromMs: number, toMs: number): { pcm: Buffer; endedAt: Date } {
    const start = Math.max(0, Math.floor(fromMs - LEAD_MS)) * STREAM_BYTES_PER_MS;
    const end = Math.ceil(toMs) * STREAM_BYTES_PER_MS;
    const parts: Buffer[] = [];
    let endedAt = Date.now();
    for (const chunk of chunks) {
      const chunkStart = chunk.atMs * STREAM_BYTES_PER_MS;
      const chunkEnd = chunkStart + chunk.pcm.length;
      if (chunkEnd <= start || chunkStart >= end) continue;
      parts.push(chunk.pcm.subarray(Math.max(0, start - chunkStart), Math.min(chunk.pcm.length, end - chunkStart)));
      if (chunkEnd >= end) endedAt = Math.min(endedAt, chunk.receivedAt);
    }
    chunks = chunks.filter((chunk) => chunk.atMs * STREAM_BYTES_PER_MS + chunk.pcm.length > end);
    return { pcm: Buffer.concat(parts), endedAt: new Date(endedAt) };
  }

  const opened = transcriber.open(language, {
    partial(text) {
      // Words the recogniser had on its way when the stream was cut are not shown.
      if (cutOff || !text.trim()) return;
      partial ??= newPartial();
      partial.rendering.update(text);
    },
    final(text, fromMs, toMs) {
      if (cutOff) return;
      sinceEndMs = Math.max(0, streamMs - toMs);
      cutAsked = false;
      const dropped = misfire;
      misfire = false;
      const audio = takeAudio(fromMs, toMs);
      // The next words start a partial of their own, while this one is stored.
      const ending = partial;
      partial = undefined;
      finals = finals.then(async () => {
        if (dropped || !text.trim() || audio.pcm.length === 0) return settlePartial(ending, 'dropped', null);
        try {
          const segment = await deps.store(roomId, userId, { pcm: audio.pcm, transcript: text, endedAt: audio.endedAt });
          await settlePartial(ending, segment ? 'stored' : 'dropped', segment?.id ?? null);
          if (segment) send({ type: 'stored', segmentId: segment.id });
        } catch (error) {
          await settlePartial(ending, 'dropped', null);
          const { code, statusCode } = error as { code?: string; statusCode?: number };
          if (code === 'quota_exceeded') send({ type: 'error', code: 'quota_exceeded', message: (error as Error).message });
          // Removed, or the room ended, meanwhile: the stream is being cut.
          else if (code !== 'room_not_live' && statusCode !== 404 && statusCode !== 403) log.error({ err: error, roomId }, 'a streamed utterance could not be stored');
        }
      });
    },
    failed(error) {
      log.error({ err: error, roomId }, 'a speech stream lost its recogniser');
      send({ type: 'error', code: 'recogniser_failed', message: error.message });
      socket.close(SPEECH_STREAM_CLOSE.unavailable, 'recogniser_failed');
    },
  });
  // A recogniser that cannot be reached (a realtime server down, a key refused): this speaker uploads.
  const openedRecognition: Recognition | null | 'failed' = await opened.catch((error: unknown) => {
    log.warn({ err: error, roomId }, 'a speech stream could not open its recogniser');
    return 'failed' as const;
  });
  if (openedRecognition === 'failed') {
    send({ type: 'unavailable', reason: 'provider' });
    return socket.close(1000, 'unavailable');
  }
  if (!openedRecognition) {
    send({ type: 'unavailable', reason: 'capacity' });
    return socket.close(1000, 'unavailable');
  }
  const live: Recognition = openedRecognition;
  recognitionBehind = () => live.behindMs;

  const unregister = deps.register(roomId, participant.id, { cut: (code) => cut(code) });
  /** Cut from outside (removed, the room ended): what was being said is not kept. */
  function cut(code: number) {
    if (closed) return;
    closed = true;
    cutOff = true;
    void live.close();
    const ending = partial;
    partial = undefined;
    void settlePartial(ending, 'dropped', null);
    socket.close(code);
  }

  function refuse(code: 'too_fast' | 'frame_invalid' | 'invalid_message', message: string) {
    const now = Date.now();
    if (now - refusedSince > 10_000) {
      refusedSince = now;
      refused = 0;
    }
    refused++;
    // A flood: far more refusals than a client in trouble sends.
    if (refused > 200) {
      log.warn({ roomId, userId }, 'a speech stream was flooded and closed');
      cut(SPEECH_STREAM_CLOSE.flooded);
      return;
    }
    if (now - lastRefusalNotice > 1_000) {
      lastRefusalNotice = now;
      send({ type: 'error', code, message });
    }
  }

  async function recheck() {
    const next = await deps.gate(roomId, userId).catch(() => gate);
    checkedAt = Date.now();
    if (typeof next === 'string') return cut(CLOSE_FOR[next]);
    gate = next;
  }

  function onFrame(data: Buffer) {
    const frameMs = data.length / STREAM_BYTES_PER_MS;
    if (data.length === 0 || data.length % 2 !== 0 || frameMs > SPEECH_STREAM.frameMaxMs) {
      return refuse('frame_invalid', `a frame is 16 kHz mono 16-bit audio of at most ${SPEECH_STREAM.frameMaxMs} ms`);
    }
    const now = Date.now();
    allowanceMs = Math.min(SPEECH_STREAM.burstMs, allowanceMs + (now - filledAt) * SPEECH_STREAM.rateFactor);
    filledAt = now;
    if (frameMs > allowanceMs) return refuse('too_fast', 'audio arrives faster than it can be spoken: frames were dropped');
    allowanceMs -= frameMs;
    chunks.push({ atMs: streamMs, pcm: data, receivedAt: now });
    streamMs += frameMs;
    sinceEndMs += frameMs;
    live.write(data);
    // The longest segment: the recogniser is told to end the utterance there (nothing is lost, it goes on in the next).
    if (!cutAsked && sinceEndMs >= LIMITS.segmentAudioMaxSeconds * 1000 - 1000) {
      cutAsked = true;
      void live.endUtterance();
    }
    const behind = behindMs();
    if ((behind > SPEECH_STREAM.behindNoticeMs || lastBehindNotice > 0) && now - lastBehindNotice > 1_000) {
      send({ type: 'behind', ms: behind });
      lastBehindNotice = behind > SPEECH_STREAM.behindNoticeMs ? now : 0;
    }
  }

  function onMessage(data: Buffer, binary: boolean) {
    if (closed) return;
    // Their participation, read again at most every GATE_RECHECK_MS (frames keep their order meanwhile).
    if (!checking && Date.now() - checkedAt >= GATE_RECHECK_MS) checking = recheck().finally(() => (checking = undefined));
    if (binary) return onFrame(data);
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString('utf8'));
    } catch {
      return refuse('invalid_message', 'a text message is JSON: {"type":"end"} or {"type":"misfire"}');
    }
    const message = speechStreamClientMessageSchema.safeParse(parsed);
    if (!message.success) return refuse('invalid_message', 'a text message is {"type":"end"} or {"type":"misfire"}');
    if (message.data.type === 'misfire') misfire = true;
    void live.endUtterance();
  }

  socket.off('message', onEarly);
  socket.on('message', (data: Buffer, binary: boolean) => onMessage(data, binary));
  socket.on('close', () => {
    unregister();
    if (closed) return;
    closed = true;
    // The speaker stopped streaming (muted, left the call): their last words are still recognised
    // and stored (within LAST_WORDS_MS), then the recogniser goes.
    const gaveUp = new Promise<void>((resolve) => setTimeout(resolve, LAST_WORDS_MS).unref());
    void Promise.race([live.endUtterance().then(() => finals), gaveUp])
      .then(() => live.close())
      .then(() => {
        const ending = partial;
        partial = undefined;
        return settlePartial(ending, 'dropped', null);
      })
      .catch((error: unknown) => log.error({ err: error, roomId }, 'a speech stream did not close cleanly'));
  });
  send({ type: 'ready' });
  for (const item of early.splice(0)) onMessage(item.data, item.binary);
}
