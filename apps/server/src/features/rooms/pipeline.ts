// A room's utterances turned into renderings and voices for its listeners: the speech jobs
// (transcribe, then render every listening group), first renders, and each step pushed as it lands.
import path from 'node:path';
import type { Domain, Language, Tone } from '@parla/contract/constants';
import { PermanentJobFailure, RetryLater } from '../../platform/jobs';
import { createLimiter } from '../../platform/process';
import { UnusableUtteranceError, type Utterance } from '../../domain/rendering/speech/provider';
import { translationGlossary } from '../../domain/glossary/glossary';
import type { TranslationGlossary } from '../../domain/rendering/translation/provider';
import { namesOf, type ListenerRow, type RoomsRepository, type SegmentRow, type SegmentVoiceRow, type SegmentWithSpeaker, type WithdrawnCorrection } from './repository';
import { distinctGroups, groupKey, groupsToRender, listenerGroup, needsVoice, readerGroup, sameText, sameVoice, textKey, type ListenerGroup } from '../../domain/rendering/reader-group';
import { renderItem } from '../../domain/rendering/render';
import { randomName, type RoomsDeps } from './service-shared';

export const TRANSCRIBE_QUEUE = 'segment-transcribe';
export const RENDER_QUEUE = 'segment-render';
/** Renders of a segment at once in a process: the render queue's workers, and first renders apart (see `renderFirst`). */
export const RENDERS_AT_ONCE = 3;
/**
 * The longest transcript looked up in and written to the translator's cache: what people say again
 * word for word is short ("Can you hear me?", "Thank you very much."); a longer utterance's
 * translations would be rows nobody reads, and its look-up a round trip before every translation.
 */
export const CACHED_UTTERANCE_MAX = 40;

export interface SegmentJob {
  segmentId: number;
  version: number;
  /** The segment's room (absent from jobs queued before it was sent): its glossary is read alongside the segment. */
  roomId?: number | undefined;
}

/** A transcription still pending after this long has lost its job (a crash between two writes): queue it again. */
export const STALE_PENDING_MS = 2 * 60_000;

/** A voice made, waiting to be saved with the others of its turn. */
interface PendingVoice {
  group: ListenerGroup;
  state: 'done' | 'none';
  audioKey: string | null;
  /** The row it replaces, if any (its file goes once the new one is saved). */
  before: SegmentVoiceRow | undefined;
  /** The text it speaks when that text is this job's own translation (pushed only if that text was saved). */
  fresh: string | undefined;
}

/** A segment and what its views are built from (see `snapshot`). */
interface SegmentSnapshot {
  item: SegmentWithSpeaker;
  domain: string;
  context: Awaited<ReturnType<RoomsRepository['renderingsOf']>>;
  /** The room's listeners (with their full names: the names its glossary protects). */
  participants: ListenerRow[];
}

export function createRoomsPipeline(deps: RoomsDeps) {
  const { repo, live, translator, transcription, synthesis, jobs, recordings, log } = deps;

  /**
   * Taken in turn across rooms and speakers: it waits behind the unfinished transcriptions of its
   * own room and its own speaker, not behind another room's backlog.
   */
  const queueTranscription = (segment: Pick<SegmentRow, 'id' | 'version' | 'roomId'>, userId: number, options: { onlyIfIdle?: boolean } = {}) =>
    jobs.send(TRANSCRIBE_QUEUE, { segmentId: segment.id, version: segment.version, roomId: segment.roomId } satisfies SegmentJob, {
      singletonKey: String(segment.id),
      fairnessKeys: [`room:${segment.roomId}`, `user:${userId}`],
      ...options,
    });

  const queue = (name: string, segment: Pick<SegmentRow, 'id' | 'version'> & Partial<Pick<SegmentRow, 'roomId'>>, options: { onlyIfIdle?: boolean; leaseSeconds?: number } = {}) =>
    jobs.send(name, { segmentId: segment.id, version: segment.version, ...(segment.roomId === undefined ? {} : { roomId: segment.roomId }) } satisfies SegmentJob, {
      singletonKey: String(segment.id),
      ...options,
    });

  /**
   * Reads once what every view of a segment is built from (its speaker, room domain, renderings,
   * voices, listeners' own tones, the room's listeners); a job then keeps it current in memory with
   * the rows it writes, and pushes each step without reading again. One statement.
   */
  async function snapshot(segmentId: number): Promise<SegmentSnapshot | undefined> {
    const found = await repo.segmentSnapshot(segmentId);
    return found && { item: found.item, domain: found.domain, context: found.context, participants: found.listeners };
  }

  /** Every listening group of the snapshot's listeners, their own tone for this segment included. */
  function listeningGroupsOf(snap: SegmentSnapshot): ListenerGroup[] {
    return distinctGroups(
      snap.participants.map((participant) => {
        const own = snap.context.tones.find((tone) => tone.participantId === participant.id);
        return { ...listenerGroup(participant), ...(own ? { tone: own.tone } : {}) };
      }),
    );
  }

  /** The listening groups of the snapshot's listeners by default (their socket rooms). */
  const defaultGroups = (snap: SegmentSnapshot): ListenerGroup[] => distinctGroups(snap.participants.map(listenerGroup));

  /** A step pushed from the snapshot: to every group (or the groups given), listeners with their own tone apart. */
  function push(event: 'segment:created' | 'segment:rendered' | 'segment:edited', snap: SegmentSnapshot, only?: ListenerGroup[]) {
    const { participants, context } = snap;
    const overrides = context.tones.flatMap((tone) => {
      const participant = participants.find((p) => p.id === tone.participantId);
      return participant ? [{ userId: participant.userId, participantId: participant.id, group: { ...listenerGroup(participant), tone: tone.tone } }] : [];
    });
    const groups = only ?? defaultGroups(snap);
    live.segment(event, snap.item, context, groups, overrides);
  }

  /**
   * A segment rendered for every listening group lacking its current version (domain/rendering/
   * render.ts): one translator call, each text saved and pushed, each group's voice made beside
   * the save, from a snapshot of the segment (kept current in memory with what is written) and
   * the room's glossary when it was read with it.
   */
  async function renderFrom(snap: SegmentSnapshot, termsRead: TranslationGlossary['terms'] | undefined): Promise<void> {
    const segment = snap.item.segment;
    if (segment.transcription !== 'done' || !segment.transcript.trim()) return;
    const { context } = snap;
    const current = { segmentId: segment.id, version: segment.version };
    const groups = listeningGroupsOf(snap);
    /** This render's translations by `textKey`: each group's voice is asked for as soon as its text is known, while the texts are saved. */
    let translated = new Map<string, string>();
    /** The texts saved and pushed: a voice (saved meanwhile) is pushed only after them. */
    let textsSaved: Promise<void> = Promise.resolve();
    /** Groups whose voice was made before the texts were saved: their text comes with their voice's push. */
    const voiceReady = new Set<string>();
    const waiting: PendingVoice[] = [];
    let flushing: Promise<void> | undefined;

    await renderItem(
      {
        name: `segment ${segment.id}`,
        text: segment.transcript,
        source: segment.language,
        groups,
        settled: (group) => context.renderings.some((r) => sameText(r, group) && r.version === segment.version && r.state !== 'pending'),
      },
      {
        provider: translator.provider,
        translate: async (lacking) =>
          translator.translateThen({
            text: segment.transcript,
            source: segment.language as Language,
            targets: lacking.map((g) => ({ language: g.language as Language, tone: g.tone as Tone })),
            domain: snap.domain as Domain,
            // The room's glossary, and its participants' names (never translated).
            glossary: translationGlossary(namesOf(snap.participants), termsRead ?? (await deps.glossaries.terms({ roomId: segment.roomId }))),
            cache: segment.transcript.trim().length <= CACHED_UTTERANCE_MAX,
          }),
        // A text left out of the answer is not written: the retry asks for it again.
        saveTexts: ({ texts }) =>
          repo
            .saveRenderings(texts.map(({ group, state, content, renderedTone, missedTerms }) => ({ ...current, ...readerGroup(group), state, transcript: content, renderedTone, missedTerms })))
            .then((saved) => {
              context.renderings = [...context.renderings.filter((r) => !saved.some((row) => sameText(row, r))), ...saved];
              // Pushed to the groups whose text was written (the others' view has not changed), but
              // those whose voice is already made: its push, one statement later, brings both.
              const written = new Set(saved.map(textKey));
              push('segment:rendered', snap, defaultGroups(snap).filter((g) => written.has(textKey(g)) && !voiceReady.has(groupKey(g))));
            }),
        // Voices: each group of another language whose text is ready, in its voice; a few at once
        // (each group gets its voice pushed as soon as it is ready, not after the slowest).
        beside: (outcome, saving) => {
          translated = outcome?.translated ?? translated;
          textsSaved = saving;
          const voiced = groups.filter((g) => needsVoice(segment.language, g));
          const voices = createLimiter(synthesis.voicesAtOnce);
          // The texts' statements go out before the voices are asked for: the database client writes a
          // statement on a later tick, which would otherwise wait behind every request's preparation.
          const started = outcome && voiced.length ? new Promise((resolve) => setImmediate(resolve)) : Promise.resolve();
          return voiced.map((group) => started.then(() => voices.run(() => speakFor(group))));
        },
        groupsNow: () => repo.listeningGroups(segment.roomId, segment.id),
        requeue: () => queue(RENDER_QUEUE, segment),
      },
    );

    /** The group's text of the current version as saved (a listener's correction included), if it is done. */
    function savedText(group: ListenerGroup): string | undefined {
      const text = context.renderings.find((r) => sameText(r, group) && r.version === segment.version);
      return text?.state === 'done' && text.transcript ? text.transcript : undefined;
    }

    async function speakFor(group: ListenerGroup): Promise<void> {
      const fresh = translated.get(textKey(group));
      const text = fresh ?? savedText(group);
      if (!text) return;
      const have = context.voices.find((v) => sameVoice(v, group));
      if (have && have.version === segment.version && have.state !== 'pending') return;
      const made = await speak(text);
      // Spoken while its text was being saved: saved meanwhile too, pushed after the text (with it).
      if (fresh !== undefined) voiceReady.add(groupKey(group));
      await saveVoice({ group, state: made.state, audioKey: made.audioKey, before: have, fresh });

      async function speak(input: string): Promise<{ state: 'done' | 'none'; audioKey: string | null }> {
        const spoken = await synthesis.synthesize(input, group.language as Language, group.male ? 'male' : 'female');
        if (spoken.state !== 'done') return { state: spoken.state, audioKey: null };
        const audioKey = `rooms/${segment.roomId}/${randomName()}.${spoken.audio.extension}`;
        await recordings.put(audioKey, spoken.audio.data);
        return { state: 'done', audioKey };
      }
    }

    /**
     * Voices ready in the same turn of the event loop are saved in one statement and pushed
     * together (a server answers a segment's voices within a few milliseconds of each other);
     * each is still pushed as soon as it is saved, never after the slowest. Saved while the
     * texts are, pushed once they are (a voice's view shows its text).
     */
    function saveVoice(voice: PendingVoice): Promise<void> {
      waiting.push(voice);
      flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        const batch = waiting.splice(0);
        flushing = undefined;
        const saved = await repo
          .saveVoices(batch.map(({ group, state, audioKey }) => ({ ...current, ...group, state, audioKey })))
          .catch(async (error: unknown) => {
            // The texts that were to come with these voices come now (the voices with the job's retry).
            await textsSaved.then(
              () => push('segment:rendered', snap, batch.map((pending) => pending.group)),
              () => undefined,
            );
            throw error;
          });
        // The voice of the text before a correction (the speaker's, or a listener's of the rendering) is no longer anyone's.
        for (const { before } of batch) {
          if (before?.audioKey && (before.version < segment.version || before.state === 'pending')) await recordings.remove(before.audioKey).catch(() => undefined);
        }
        const savedKeys = new Set(saved.map(groupKey));
        context.voices = [...context.voices.filter((v) => !savedKeys.has(groupKey(v))), ...saved];
        await textsSaved;
        // A voice of a text that was not written (a newer version's text is there) is not pushed.
        push('segment:rendered', snap, batch.filter((pending) => pending.fresh === undefined || savedText(pending.group) === pending.fresh).map((pending) => pending.group));
      });
      return flushing;
    }
  }

  /** First renders running in this process (see `renderFirst`). */
  const firstRenders = new Set<Promise<void>>();

  /**
   * A segment's first render, once its transcript is saved. Its render job is queued as a lease (a
   * worker may take it only if this process has not released it in time: a crash), the transcript
   * is pushed from a snapshot read meanwhile with the room's glossary, and the render runs at once
   * from that snapshot, beside the transcription queue (whose worker goes on to the next
   * utterance) instead of after a worker takes the job and reads the segment again. Its end
   * releases the job: it then runs and does what was asked while it waited (a correction, a repair:
   * their sends found it waiting and were dropped), or, after a failure, the render again at the
   * job's pace and with its retries. A render job of the segment already waiting, or
   * RENDERS_AT_ONCE first renders running here, and the job does it all, as any other render.
   */
  async function renderFirst(segment: Pick<SegmentRow, 'id' | 'version' | 'roomId'>): Promise<void> {
    const here = firstRenders.size < RENDERS_AT_ONCE;
    const [lease, snap, terms] = await Promise.all([
      queue(RENDER_QUEUE, segment, here ? { leaseSeconds: deps.renderLease.seconds } : {}),
      snapshot(segment.id),
      here && translator.provider.name !== 'none' ? deps.glossaries.terms({ roomId: segment.roomId }) : undefined,
    ]);
    if (snap) push('segment:rendered', snap);
    if (!here || lease === null) return;
    const rendering = (snap ? renderFrom(snap, terms) : Promise.resolve())
      .then(
        () => jobs.release(RENDER_QUEUE, lease),
        (error: unknown) => {
          const wait = error instanceof RetryLater ? error.seconds : deps.renderLease.retryDelaySeconds;
          log.warn({ err: error, segmentId: segment.id, retryAfterSeconds: wait }, 'a first render failed: its job tries again');
          return jobs.release(RENDER_QUEUE, lease, wait);
        },
      )
      // Unreleased, the job still runs when its lease ends.
      .catch((error: unknown) => log.error({ err: error, segmentId: segment.id }, 'a first render could not hand its job over'))
      .finally(() => firstRenders.delete(rendering));
    firstRenders.add(rendering);
  }

  async function pushSegment(event: 'segment:created' | 'segment:rendered' | 'segment:edited', segmentId: number) {
    const snap = await snapshot(segmentId);
    if (snap) push(event, snap);
  }

  /** Tells the listeners of each rendering whose correction was taken back, and has its voices made again. */
  async function announceWithdrawn(roomId: number, withdrawn: readonly WithdrawnCorrection[]) {
    const versions = new Map(withdrawn.map((item) => [item.segmentId, item.version]));
    for (const [id, version] of versions) {
      await pushSegment('segment:rendered', id);
      await queue(RENDER_QUEUE, { id, version, roomId });
    }
  }

  /** The service's methods of the pipeline: the repair of lost transcriptions, and the speech jobs' handlers (index.ts defines their queues). */
  const handlers = {
    /**
     * Utterances whose transcription has waited over STALE_PENDING_MS (a crash between storing one
     * and queueing its job) are queued again; one already waiting is not queued twice.
     */
    async requeueStaleTranscriptions(): Promise<number> {
      const stale = await repo.staleTranscriptions(new Date(Date.now() - STALE_PENDING_MS), 100);
      for (const segment of stale) {
        const speaker = await repo.participantById(segment.speakerId);
        // A repair: a transcription still waiting in the queue (a long backlog) is not queued twice.
        await queueTranscription(segment, speaker?.userId ?? 0, { onlyIfIdle: true });
      }
      return stale.length;
    },

    // ---- jobs ----

    async transcribe(job: SegmentJob): Promise<void> {
      const segment = await repo.findSegment(job.segmentId);
      if (!segment || segment.version !== job.version) return;
      // A try after the transcript was saved (the process ended before its render job was queued, or
      // after): the render job does the rest; one already waiting (a first render's) is not queued twice.
      if (segment.transcription === 'done' && segment.transcript.trim()) await queue(RENDER_QUEUE, segment, { onlyIfIdle: true });
      if (segment.transcription !== 'pending') return;
      const data = await recordings.read(segment.audioKey);
      // Measured as decoded when it was uploaded, and stored under its format's extension: not probed again.
      const format = path.extname(segment.audioKey).slice(1);
      const utterance: Utterance | null =
        format === 'wav' || format === 'ogg' || format === 'webm' || format === 'mp4' ? { data, format, durationSeconds: segment.durationSeconds } : null;
      if (!utterance) {
        await repo.saveTranscript(segment.id, segment.version, 'failed', '');
      } else {
        const result = await transcription.transcribe(utterance, segment.language as Language).catch((error: unknown) => {
          // The upload itself is at fault (it does not decode, or ran the recogniser past its
          // limit): failed now (transcribeGaveUp), not retried while every room's utterances wait.
          if (error instanceof UnusableUtteranceError) throw new PermanentJobFailure(`segment ${segment.id}: ${error.message}`, { cause: error });
          throw error;
        });
        await repo.saveTranscript(segment.id, segment.version, result.state === 'done' ? 'done' : 'none', result.state === 'done' ? result.text.trim() : '');
        if (result.state === 'done' && result.text.trim()) {
          await renderFirst(segment);
          return;
        }
      }
      await pushSegment('segment:rendered', segment.id);
    },

    async transcribeGaveUp(job: SegmentJob): Promise<void> {
      const segment = await repo.findSegment(job.segmentId);
      if (!segment || segment.version !== job.version || segment.transcription !== 'pending') return;
      await repo.saveTranscript(segment.id, segment.version, 'failed', '');
      await pushSegment('segment:rendered', segment.id);
    },

    /**
     * Translations for every listening group lacking the current version (one translator call),
     * then their voices. One render job waits per segment, so a correction made while one waits is
     * not queued again: the job renders the version current when it runs.
     */
    async render(job: SegmentJob): Promise<void> {
      // The room's glossary is read with the snapshot (a job queued without its room reads it after).
      const [snap, termsRead] = await Promise.all([
        snapshot(job.segmentId),
        translator.provider.name !== 'none' && job.roomId !== undefined ? deps.glossaries.terms({ roomId: job.roomId }) : undefined,
      ]);
      if (snap) await renderFrom(snap, termsRead);
    },

    /** Waits for the first renders running in this process (the server closes after them). */
    async settle(): Promise<void> {
      await Promise.allSettled([...firstRenders]);
    },

    async renderGaveUp(job: SegmentJob): Promise<void> {
      const segment = await repo.findSegment(job.segmentId);
      if (!segment) return;
      const groups = await repo.listeningGroups(segment.roomId, segment.id);
      const context = await repo.renderingsOf([segment.id]);
      const failedTexts = groupsToRender(translator.provider, segment.language, groups)
        .filter((g) => !context.renderings.some((r) => sameText(r, g) && r.version === segment.version && r.state !== 'pending'));
      await repo.saveRenderings(
        failedTexts.map((g) => ({ segmentId: segment.id, version: segment.version, language: g.language, tone: g.tone, state: 'failed' as const, transcript: null, renderedTone: null })),
      );
      const failedVoices = groups
        .filter((g) => needsVoice(segment.language, g))
        .filter((g) => !context.voices.some((v) => sameVoice(v, g) && v.version === segment.version && v.state !== 'pending'));
      await repo.saveVoices(failedVoices.map((g) => ({ segmentId: segment.id, version: segment.version, ...g, state: 'failed' as const, audioKey: null })));
      log.warn({ segmentId: segment.id }, 'segment rendering failed for good: listeners get the original');
      await pushSegment('segment:rendered', segment.id);
    },
  };

  return { queue, queueTranscription, snapshot, push, pushSegment, announceWithdrawn, renderFirst, handlers };
}

export type RoomsPipeline = ReturnType<typeof createRoomsPipeline>;
