// What the rooms calls do (product.md "Rooms, participants, segments"). Every call starts from
// `load` (404 for strangers and those who left), asks the policy, then works. Utterances go
// through durable jobs: transcribe, then translate for every listening group in one translator
// call and speak each group's voice; every step is pushed to the listeners as it lands.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { API } from '@parla/contract/api';
import { callOpen, mayRemoveParticipant, roomStatesFor } from '@parla/contract/policies';
import { LIMITS, ROOM_ROLE, ROOM_STATE, type Domain, type Language, type MemberState, type RoomRole, type RoomState, type Tone } from '@parla/contract/constants';
import type {
  ManageParticipant,
  Participant,
  ParticipantPatchRequest,
  ParticipantsPage,
  Room,
  RoomCreateRequest,
  RoomPatchRequest,
  RoomsPage,
  Segment,
  SegmentsPage,
} from '@parla/contract/rooms';
import type { FastifyBaseLogger } from 'fastify';
import { changedFields, isEmpty } from '../../platform/changes';
import { fieldError, formError, notFound } from '../../platform/errors';
import { PermanentJobFailure, RetryLater, type Jobs } from '../../platform/jobs';
import { indexedPage, offsetPage, pageLink } from '../../platform/pages';
import { permissionDenied } from '../../platform/policy';
import { fillPath } from '../../platform/routes';
import { createLimiter } from '../../platform/process';
import { UnusableUtteranceError, type SynthesisProvider, type TranscriptionProvider, type Utterance } from '../../domain/rendering/speech/provider';
import type { Storage } from '../../platform/storage';
import type { Translator } from '../../domain/rendering/translation/index';
import { notifyInvitation, type InvitationMail } from '../../domain/invitations/invitations';
import { translate } from '../../platform/i18n';
import type { Push } from '../../domain/delivery/push';
import type { Quotas } from '../../platform/quotas';
import { translationGlossary, type GlossaryAccess, type Glossaries } from '../../domain/glossary/glossary';
import type { TranslationGlossary } from '../../domain/rendering/translation/provider';
import { glossaryTouches } from '../../domain/rendering/translation/glossary';
import type { GlossaryApply } from '@parla/contract/glossary';
import { displayName, invitedName, type UserDirectory } from '../../domain/people/users';
import type { Calls } from './livekit';
import type { RoomsLive } from './live';
import { roomPolicy } from './policy';
import { namesOf, type ListenerRow, type ParticipantRow, type ParticipantView, type RoomRow, type RoomsRepository, type SegmentRow, type SegmentVoiceRow, type SegmentWithSpeaker, type WithdrawnCorrection } from './repository';
import type { Listener, SegmentPresenter } from './segments';
import { transcriptSubRip, transcriptText, type TranscriptLine } from './transcript';
import { distinctGroups, groupKey, groupsToRender, listenerGroup, needsVoice, readerGroup, sameText, sameVoice, textKey, type ListenerGroup } from '../../domain/rendering/reader-group';
import { renderItem } from '../../domain/rendering/render';

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

export interface RoomsDeps {
  repo: RoomsRepository;
  users: UserDirectory;
  invitations: InvitationMail;
  live: RoomsLive;
  presenter: SegmentPresenter;
  translator: Translator;
  transcription: TranscriptionProvider;
  synthesis: SynthesisProvider;
  inspect: (data: Buffer) => Promise<Utterance | null>;
  jobs: Jobs;
  /** Recordings and voices (private: served through the audio route after a participation check). */
  recordings: Storage;
  avatars: Storage;
  /** Tokens for the call, and the RoomService calls that take access back (never throw). */
  /** A call's media: LiveKit tokens, and the endings of LiveKit and mesh calls alike. */
  calls: Calls;
  push: Push;
  glossaries: Glossaries;
  quotas: Quotas;
  limits: { audioMaxBytes: number; audioMaxSeconds: number };
  /** A first render's job waits this long for its process before a worker may take it; a failed first render hands it over after `retryDelaySeconds`. */
  renderLease: { seconds: number; retryDelaySeconds: number };
  publicUrl: string;
  log: FastifyBaseLogger;
}

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

const randomName = () => randomBytes(12).toString('hex');
const stateOf = (participant: Pick<ParticipantRow, 'joinedAt'>): MemberState => (participant.joinedAt ? 'joined' : 'invited');

/** A transcription still pending after this long has lost its job (a crash between two writes): queue it again. */
export const STALE_PENDING_MS = 2 * 60_000;


export function createRoomsService(deps: RoomsDeps) {
  const { repo, users, live, presenter, translator, transcription, synthesis, jobs, recordings, publicUrl, log } = deps;
  const link = (urlPath: string) => (query: Record<string, string | number | undefined>) => pageLink(publicUrl, urlPath, query);

  /** A room as a participant sees it; one only invited sees its title and languages, not its description (answers and pushes alike). */
  const presentRoom = (room: RoomRow, participant: Pick<ParticipantRow, 'roomRole' | 'joinedAt' | 'invitedBy'>): Room => ({
    id: room.id,
    title: room.title,
    description: participant.joinedAt ? room.description : null,
    languages: room.languages as Language[],
    domain: room.domain as Domain,
    created: room.createdAt.toISOString(),
    modified: room.modifiedAt.toISOString(),
    state: room.state as RoomState,
    roomRole: participant.roomRole as RoomRole,
    memberState: stateOf(participant),
    invitedBy: participant.joinedAt ? null : participant.invitedBy,
  });

  async function presentParticipant(room: RoomRow, participant: ParticipantRow): Promise<Participant> {
    // The call is theirs once they accepted: an invitation gets no token.
    const isLive = callOpen(room.state as RoomState) && participant.joinedAt !== null;
    return {
      id: participant.id,
      alias: participant.alias,
      roomRole: participant.roomRole as RoomRole,
      language: participant.language as Language,
      // No LiveKit server, no token for one (the call is the mesh, features/rooms/mesh.ts).
      lkToken: isLive && deps.calls.url !== null ? await deps.calls.mint(room.id, participant) : null,
      lkUrl: deps.calls.url,
      maleVoice: participant.maleVoice,
      tone: participant.tone as Tone,
      memberState: stateOf(participant),
    };
  }

  const presentManaged = (participant: ParticipantView): ManageParticipant => ({
    id: participant.id,
    user: participant.email,
    roomRole: participant.roomRole as RoomRole,
    alias: participant.alias,
    // Someone invited shows nothing of their account but the address.
    avatarImage: participant.joinedAt && participant.avatarKey ? deps.avatars.url(participant.avatarKey) : null,
    memberState: stateOf(participant),
  });

  /**
   * The caller's participation: 404 for strangers and those who left, and for those only invited
   * unless `invited` allows them (they see the room's name, their invitation, and nothing more).
   */
  async function load(roomId: number, userId: number, options: { invited?: boolean } = {}) {
    const found = await repo.findParticipation(roomId, userId);
    if (!found || (!found.participant.joinedAt && !options.invited)) throw notFound();
    return found;
  }

  /** Segments as one participant hears them (their own tone per segment included). */
  async function presentSegments(rows: SegmentWithSpeaker[], participant: ParticipantRow): Promise<Segment[]> {
    const context = await repo.renderingsOf(rows.map((row) => row.segment.id));
    const views = rows.map((row) => {
      const own = context.tones.find((tone) => tone.segmentId === row.segment.id && tone.participantId === participant.id);
      const listener: Listener = { ...listenerGroup(participant), ...(own ? { tone: own.tone } : {}), participantId: participant.id };
      return presenter.present(row, listener, context);
    });
    // What this listener lacks (a new participant, a new language) is queued now.
    const lacking = views.filter((view) => view.transcription === 'done' && (view.translation === 'pending' || view.speech === 'pending'));
    for (const view of lacking) {
      const row = rows.find((r) => r.segment.id === view.id)!;
      // A repair: not while a render of it is unfinished (it may be waiting out a provider's Retry-After).
      await queue(RENDER_QUEUE, row.segment, { onlyIfIdle: true });
    }
    return views;
  }

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

  /** What went with participants removed for good: their files off the disk, their segments off every screen. */
  async function purge(roomId: number, removal: { segmentIds: number[]; files: string[]; withdrawn: readonly WithdrawnCorrection[] }) {
    for (const key of removal.files) await recordings.remove(key).catch((error: unknown) => log.warn({ err: error, key }, 'a removed recording could not be deleted'));
    live.segmentsDeleted(roomId, removal.segmentIds);
    await announceWithdrawn(roomId, removal.withdrawn);
  }

  /** Tells the listeners of each rendering whose correction was taken back, and has its voices made again. */
  async function announceWithdrawn(roomId: number, withdrawn: readonly WithdrawnCorrection[]) {
    const versions = new Map(withdrawn.map((item) => [item.segmentId, item.version]));
    for (const [id, version] of versions) {
      await pushSegment('segment:rendered', id);
      await queue(RENDER_QUEUE, { id, version, roomId });
    }
  }

  /** A segment of the room (else 404), the listener's group for it (their own tone for it included) and their rendering of its current text. */
  async function renderingFor(roomId: number, participant: ParticipantRow, segmentId: number) {
    const segment = await repo.findSegment(segmentId);
    if (!segment || segment.roomId !== roomId) throw notFound();
    const context = await repo.renderingsOf([segment.id]);
    const own = context.tones.find((tone) => tone.participantId === participant.id);
    const group = { language: participant.language, tone: own?.tone ?? participant.tone };
    const current = context.renderings.find((row) => sameText(row, group) && row.version === segment.version);
    return { segment, group, current };
  }

  /** How a participant listens by default: in their interface language when the room has it, else in the room's first. */
  const defaultLanguage = (room: RoomRow, user: { language: string }) => (room.languages.includes(user.language) ? user.language : (room.languages[0] ?? user.language));

  return {
    /** The caller's access to the room's glossary: participants read it, the OWNER edits it (404 for strangers). */
    async glossaryAccess(roomId: number, userId: number): Promise<GlossaryAccess> {
      const { participant } = await load(roomId, userId);
      return { scope: { roomId }, mayEdit: roomPolicy.may(participant.roomRole as RoomRole, 'editGlossary'), names: () => repo.participantNames(roomId, false) };
    },

    async listRooms(userId: number, query: { limit: number; offset: number }): Promise<RoomsPage> {
      const { count, rows } = await repo.listForUser(userId, query.limit, query.offset);
      return offsetPage(link(fillPath(API.listRooms, {})), query, count, rows.map((row) => presentRoom(row.room, row.participant)));
    },

    async createRoom(userId: number, body: RoomCreateRequest): Promise<Room> {
      const user = await users.byId(userId);
      if (!user) throw notFound();
      const languages = body.languages ?? [user.language as Language];
      const { room, participant } = await repo.createWithOwner(
        { title: body.title, description: body.description ?? null, languages, domain: body.domain },
        {
          userId,
          roomRole: ROOM_ROLE.OWNER,
          alias: displayName(user),
          language: languages.includes(user.language as Language) ? user.language : languages[0]!,
        },
      );
      return presentRoom(room, participant);
    },

    async getRoom(roomId: number, userId: number): Promise<Room> {
      const { room, participant } = await load(roomId, userId, { invited: true });
      return presentRoom(room, participant);
    },

    async updateRoom(roomId: number, userId: number, changes: RoomPatchRequest): Promise<Room> {
      const found = await load(roomId, userId);
      const { participant } = found;
      roomPolicy.require(participant.roomRole as RoomRole, 'editRoom');
      const values = changedFields(found.room, changes, ['title', 'description', 'languages', 'domain']);
      if (isEmpty(values)) return presentRoom(found.room, participant);
      const room = await repo.updateRoom(roomId, values);
      if (!room) throw notFound();
      live.roomUpdated(presentRoom(room, participant), await repo.everyone(roomId));
      return presentRoom(room, participant);
    },

    async deleteRoom(roomId: number, userId: number): Promise<void> {
      const { participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'deleteRoom');
      const userIds = (await repo.everyone(roomId)).map((p) => p.userId);
      await repo.deleteRoom(roomId);
      // The call ends with the room, for everyone in it (awaited, never thrown: see livekit.ts).
      const callClosed = deps.calls.closeRoom(roomId);
      await recordings.removeAll(`rooms/${roomId}`);
      await live.removed(roomId, userIds);
      await callClosed;
    },

    /** Only the changes the contract allows the caller (roomStatesFor); anything else is a 400 on `state`. */
    async changeState(roomId: number, userId: number, state: RoomState): Promise<Room> {
      const { room, participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'changeState');
      const from = room.state as RoomState;
      if (!roomStatesFor(participant.roomRole as RoomRole, from).includes(state)) throw fieldError('state', 'stateChange', { from, to: state }, 'invalid_transition');
      const changed = await repo.changeState(roomId, from, state);
      if (!changed) throw fieldError('state', 'stateChange', { from, to: state }, 'invalid_transition');
      // Ended: the call is closed for everyone in it (no token is given until it is Live again).
      const callClosed = state === ROOM_STATE.END ? deps.calls.closeRoom(roomId) : undefined;
      const everyone = await repo.everyone(roomId);
      live.roomUpdated(presentRoom(changed, participant), everyone);
      // Live: the other participants are told on their devices (those with no tab open).
      if (state === ROOM_STATE.LIVE) {
        const others = everyone.filter((row) => row.joinedAt && row.id !== participant.id).map((row) => row.userId);
        deps.push.notifyOffline(others, (language) => ({
          kind: 'live',
          title: translate(language, 'pushLiveTitle', { title: changed.title }),
          body: translate(language, 'pushLiveBody', { name: participant.alias }),
          lang: language,
          url: `/room/${roomId}`,
          tag: `room-${roomId}`,
        }));
      }
      await callClosed;
      return presentRoom(changed, participant);
    },

    async getParticipant(roomId: number, userId: number): Promise<Participant> {
      const { room, participant } = await load(roomId, userId, { invited: true });
      return presentParticipant(room, participant);
    },

    /**
     * The invited participant accepts: they join, shown by their name and listening in their
     * language (when the room has it). Accepting again changes nothing.
     */
    async acceptInvitation(roomId: number, userId: number): Promise<Participant> {
      const { room, participant } = await load(roomId, userId, { invited: true });
      if (participant.joinedAt) return presentParticipant(room, participant);
      const user = await users.byId(userId);
      if (!user) throw notFound();
      // The language the invitation was made with (someone invited again keeps the one they had
      // chosen: issue 37), unless the room no longer has it.
      const language = room.languages.includes(participant.language) ? participant.language : defaultLanguage(room, user);
      const joined = await repo.acceptInvitation(participant.id, { alias: displayName(user), language });
      if (!joined) return presentParticipant(room, (await load(roomId, userId)).participant);
      live.participantsChanged(roomId);
      live.roomUpdated(presentRoom(room, joined), [joined]);
      return presentParticipant(room, joined);
    },

    async updateParticipant(roomId: number, userId: number, changes: ParticipantPatchRequest): Promise<Participant> {
      const { room, participant } = await load(roomId, userId);
      if (changes.language !== undefined && !room.languages.includes(changes.language)) {
        throw fieldError('language', 'languageNotInRoom', { language: changes.language }, 'invalid_choice');
      }
      const values = changedFields(participant, changes, ['alias', 'language', 'tone', 'maleVoice']);
      const updated = isEmpty(values) ? participant : await repo.updateParticipant(participant.id, values);
      if (!updated) throw notFound();
      const before = listenerGroup(participant);
      const after = listenerGroup(updated);
      if (before.language !== after.language || before.tone !== after.tone || before.male !== after.male) await live.regrouped(userId, roomId, after);
      if (updated.alias !== participant.alias) live.participantsChanged(roomId);
      return presentParticipant(room, updated);
    },

    /** Leaves the room, or declines the invitation. */
    async leave(roomId: number, userId: number, permanent: boolean): Promise<void> {
      const { participant } = await load(roomId, userId, { invited: true });
      let roomDeleted = false;
      if (participant.roomRole === ROOM_ROLE.OWNER) {
        const heir = await repo.successor(roomId, participant.id);
        if (heir) await repo.updateParticipant(heir.id, { roomRole: ROOM_ROLE.OWNER });
        else {
          await repo.deleteRoom(roomId);
          roomDeleted = true;
          await recordings.removeAll(`rooms/${roomId}`);
        }
      }
      const removal = await repo.removeParticipants(roomId, [participant.id], permanent);
      // Out of the call too (the whole call when the room went with them).
      const callLeft = roomDeleted ? deps.calls.closeRoom(roomId) : deps.calls.removeParticipants(roomId, [participant.id]);
      await purge(roomId, removal);
      await live.removed(roomId, [userId]);
      live.participantsChanged(roomId);
      await callLeft;
    },

    async listParticipants(roomId: number, userId: number, query: { pageIndex: number; pageSize: number; q?: string | undefined }): Promise<ParticipantsPage> {
      const { participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'listParticipants');
      const { count, rows } = await repo.listParticipants(roomId, { offset: query.pageIndex * query.pageSize, limit: query.pageSize, q: query.q });
      return indexedPage(link(fillPath(API.listParticipants, { roomId })), query, count, rows.map(presentManaged));
    },

    /**
     * Invites someone by e-mail: the same answer whether or not the address has an account (one
     * without gets an account waiting to be signed up for), and nothing of their account shown
     * until they accept. They are told by e-mail when `notify` (the address's e-mail budget).
     */
    async addParticipant(roomId: number, userId: number, body: { user: string; roomRole: RoomRole }, options: { lang: Language; notify: boolean }): Promise<ManageParticipant> {
      const { room, participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'manageParticipants');
      if (body.roomRole === ROOM_ROLE.OWNER) throw fieldError('roomRole', 'ownerByHandOver', undefined, 'invalid_choice');
      const invitee = await users.byEmailOrInvited(body.user, options.lang);
      const added = await repo.addParticipant({ roomId, userId: invitee.id, roomRole: body.roomRole, alias: invitedName(invitee.email), language: defaultLanguage(room, invitee), invitedBy: participant.alias });
      if (!added) throw fieldError('user', 'alreadyParticipant', undefined, 'unique');
      live.participantsChanged(roomId);
      // The invitee's open tabs learn of the invitation at once.
      live.roomUpdated(presentRoom(room, added), [added]);
      if (options.notify) deps.invitations.send({ invitee, inviterUserId: userId, inviter: participant.alias, title: room.title, path: `/room/${roomId}`, lang: options.lang });
      notifyInvitation(deps.push, { userId: invitee.id, inviter: participant.alias, title: room.title, url: `/room/${roomId}`, tag: `room-${roomId}` });
      const [view] = await repo.findParticipants(roomId, [added.id]);
      return presentManaged(view!);
    },

    async removeParticipants(roomId: number, userId: number, ids: number[], permanent: boolean, from: 'path' | 'list'): Promise<void> {
      const { participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'manageParticipants');
      const targets = await repo.findParticipants(roomId, ids);
      const unknown = ids.filter((id) => !targets.some((target) => target.id === id));
      if (unknown.length) {
        if (from === 'path') throw notFound();
        throw fieldError('ids', 'noSuchParticipants', { ids: unknown.join(', ') }, 'does_not_exist');
      }
      // The manager may remove anyone but themselves.
      if (!targets.every((target) => mayRemoveParticipant({ id: participant.id, roomRole: participant.roomRole as RoomRole }, target))) throw formError('removeSelf', 'invalid');
      const removal = await repo.removeParticipants(roomId, ids, permanent);
      // Out of the call at once, not when their token expires.
      const callLeft = deps.calls.removeParticipants(roomId, ids);
      await purge(roomId, removal);
      await live.removed(roomId, targets.map((target) => target.userId));
      live.participantsChanged(roomId);
      await callLeft;
    },

    async changeRole(roomId: number, userId: number, targetId: number, roomRole: RoomRole): Promise<ManageParticipant> {
      const { participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'manageParticipants');
      const [target] = await repo.findParticipants(roomId, [targetId]);
      if (!target) throw notFound();
      if (target.id === participant.id) throw fieldError('roomRole', 'ownRole', undefined, 'invalid');
      // The room is handed over only to someone who has accepted.
      if (roomRole === ROOM_ROLE.OWNER && !target.joinedAt) throw fieldError('roomRole', 'invitationPending', undefined, 'invalid');
      if (roomRole === ROOM_ROLE.OWNER) await repo.handOver(roomId, participant.id, target.id, ROOM_ROLE.OWNER, ROOM_ROLE.MEMBER);
      else await repo.updateParticipant(target.id, { roomRole });
      live.participantsChanged(roomId);
      const [view] = await repo.findParticipants(roomId, [target.id]);
      return presentManaged(view!);
    },

    async listSegments(roomId: number, userId: number, query: { limit: number; offset: number }): Promise<SegmentsPage> {
      const { participant } = await load(roomId, userId);
      const { count, rows } = await repo.listSegments(roomId, query);
      return offsetPage(link(fillPath(API.listSegments, { roomId })), query, count, await presentSegments(rows, participant));
    },

    async getSegment(roomId: number, userId: number, segmentId: number): Promise<Segment> {
      const { participant } = await load(roomId, userId);
      const { rows } = await repo.listSegments(roomId, { limit: 1, offset: 0, id: segmentId });
      if (rows.length === 0) throw notFound();
      const [view] = await presentSegments(rows, participant);
      return view!;
    },

    /**
     * A listener corrects the rendering they hear (their language and tone for this segment):
     * everyone hearing it so reads the correction live, marked with who made it, and hears it
     * spoken again; the machine's text stays one click away. Only a done rendering can be corrected.
     */
    async correctRendering(roomId: number, userId: number, segmentId: number, transcript: string): Promise<Segment> {
      const { participant } = await load(roomId, userId);
      const { segment, group, current } = await renderingFor(roomId, participant, segmentId);
      if (current?.state !== 'done' || current.transcript === null) throw fieldError('transcript', 'nothingToCorrect', undefined, 'invalid');
      const changed =
        transcript === (current.machineTranscript ?? current.transcript)
          ? await repo.restoreRendering(segment.id, segment.version, group)
          : transcript !== current.transcript || current.machineTranscript === null
            ? await repo.correctRendering(segment.id, segment.version, group, transcript, participant.id)
            : undefined;
      if (changed) {
        await pushSegment('segment:rendered', segment.id);
        // Its voice speaks the new text.
        await queue(RENDER_QUEUE, segment);
      }
      return this.getSegment(roomId, userId, segmentId);
    },

    /**
     * Takes a correction of the listener's rendering back (none: nothing changes); with
     * `everyone`, the owner withdraws every listener's correction of the segment.
     */
    async restoreRendering(roomId: number, userId: number, segmentId: number, everyone = false): Promise<void> {
      const { participant } = await load(roomId, userId);
      if (everyone) {
        roomPolicy.require(participant.roomRole as RoomRole, 'withdrawCorrections');
        const segment = await repo.findSegment(segmentId);
        if (!segment || segment.roomId !== roomId) throw notFound();
        await announceWithdrawn(roomId, await repo.withdrawCorrectionsOf(segment.id));
        return;
      }
      const { segment, group } = await renderingFor(roomId, participant, segmentId);
      if (await repo.restoreRendering(segment.id, segment.version, group)) {
        await pushSegment('segment:rendered', segment.id);
        await queue(RENDER_QUEUE, segment);
      }
    },

    /**
     * "Apply to recent utterances": the newest segments holding a term or name of the glossary as
     * it is now are translated and spoken again (renderings listeners corrected stay).
     */
    async applyGlossary(roomId: number, userId: number): Promise<GlossaryApply> {
      const access = await this.glossaryAccess(roomId, userId);
      if (!access.mayEdit) throw permissionDenied();
      const glossary = await deps.glossaries.forTranslation(access.scope, await repo.participantNames(roomId, true));
      const touched = (await repo.recentTexts(roomId, LIMITS.glossaryApplyRecent)).filter((segment) => glossaryTouches(segment.transcript, segment.language as Language, glossary));
      const again = await repo.renderAgain(touched.map((segment) => segment.id));
      for (const segmentId of again) {
        await queue(RENDER_QUEUE, touched.find((item) => item.id === segmentId)!);
        await pushSegment('segment:rendered', segmentId);
      }
      return { queued: again.length };
    },

    /** The speaker corrects the transcript (re-translated and re-spoken for everyone); a listener may change their tone. */
    async updateSegment(roomId: number, userId: number, segmentId: number, changes: { transcript?: string | undefined; tone?: Tone | undefined }): Promise<Segment> {
      const { participant } = await load(roomId, userId);
      const segment = await repo.findSegment(segmentId);
      if (!segment || segment.roomId !== roomId) throw notFound();
      if (changes.transcript !== undefined) {
        if (segment.speakerId !== participant.id) throw permissionDenied();
        if (changes.transcript !== segment.transcript || segment.transcription !== 'done') {
          const corrected = await repo.correctTranscript(segmentId, changes.transcript);
          if (!corrected) throw notFound();
          await queue(RENDER_QUEUE, corrected);
          await pushSegment('segment:edited', segmentId);
        }
      }
      if (changes.tone !== undefined) {
        await repo.setListenerTone(segmentId, participant.id, changes.tone);
        const current = await repo.findSegment(segmentId);
        if (current) await queue(RENDER_QUEUE, current);
      }
      return this.getSegment(roomId, userId, segmentId);
    },

    /**
     * One utterance: checked by content, stored, then transcribed, translated and spoken by jobs.
     * Stored once per `clientId`: a repeat (the client lost the answer) gets the stored segment
     * (`created: false`), even after the room left Live.
     */
    async uploadSegment(roomId: number, userId: number, audio: Buffer | undefined, clientId?: string, spokenAgoMs?: number): Promise<{ segment: Segment; created: boolean }> {
      const { room, participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'speak');
      const stored = clientId ? await repo.segmentByClientId(participant.id, clientId) : undefined;
      if (stored) return { segment: await this.getSegment(roomId, userId, stored.id), created: false };
      if (!callOpen(room.state as RoomState)) throw fieldError('audio', 'roomNotLive', undefined, 'room_not_live');
      if (!audio || audio.length === 0) throw fieldError('audio', 'required', undefined, 'required');
      const utterance = await deps.inspect(audio).catch((error: unknown) => {
        // A probe that could not run (ffmpeg missing or failing) is logged; the upload is refused plainly.
        log.error({ err: error }, 'the utterance could not be inspected');
        return null;
      });
      if (!utterance) throw fieldError('audio', 'audioInvalid', undefined, 'invalid_audio');
      if (utterance.durationSeconds > deps.limits.audioMaxSeconds) {
        throw fieldError('audio', 'audioTooLong', { max: deps.limits.audioMaxSeconds }, 'audio_too_long');
      }
      await deps.quotas.checkRecording(userId, roomId, utterance.data.length);
      const audioKey = `rooms/${roomId}/${randomName()}.${utterance.format}`;
      await recordings.put(audioKey, utterance.data);
      const language = participant.language as Language;
      let segment: SegmentRow | undefined;
      try {
        segment = await repo.insertSegment({
          roomId,
          speakerId: participant.id,
          language,
          audioKey,
          audioBytes: utterance.data.length,
          // When it was said (its end), not when it arrived: the transcript and its subtitles keep
          // the speaker's pace when uploads wait (issue 37).
          createdAt: new Date(Date.now() - (spokenAgoMs ?? 0)),
          durationSeconds: utterance.durationSeconds,
          transcription: transcription.canTranscribe(language) ? 'pending' : 'none',
          clientId: clientId ?? null,
        });
      } catch (error) {
        await recordings.remove(audioKey);
        throw error;
      }
      if (!segment) {
        // The same clientId arrived twice at once: the other one is stored.
        await recordings.remove(audioKey);
        const first = await repo.segmentByClientId(participant.id, clientId!);
        if (!first) throw notFound();
        return { segment: await this.getSegment(roomId, userId, first.id), created: false };
      }
      // The answer and the created push show the segment as stored, before its job can change it
      // (a fast transcriber would otherwise make either say 'done' before 'segment:created').
      const snap = await snapshot(segment.id);
      if (!snap) throw notFound();
      const answer = presenter.present(snap.item, { ...listenerGroup(participant), participantId: participant.id }, snap.context);
      push('segment:created', snap);
      if (segment.transcription === 'pending') await queueTranscription(segment, userId);
      return { segment: answer, created: true };
    },

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

    /** The storage key of a recording or a voice of this room, for a participant of it. */
    async audioFile(roomId: number, userId: number, name: string): Promise<string> {
      await load(roomId, userId);
      if (!/^[a-f0-9]{24}\.(wav|ogg|webm|mp4|mp3)$/.test(name)) throw notFound();
      return `rooms/${roomId}/${name}`;
    },

    /** The whole transcript in the caller's language, as plain text or SubRip subtitles. */
    async transcript(roomId: number, userId: number, format: 'txt' | 'srt'): Promise<{ filename: string; body: string }> {
      const { room, participant } = await load(roomId, userId);
      const all: Segment[] = [];
      for (let offset = 0; ; offset += 100) {
        const { rows } = await repo.listSegments(roomId, { limit: 100, offset });
        if (rows.length === 0) break;
        all.push(...(await presentSegments(rows, participant)));
      }
      // In the order said (an utterance's `created` is when it ended): uploads may arrive out of it.
      const began = (segment: Segment) => Date.parse(segment.created) - segment.duration * 1000;
      const spoken = all.filter((segment) => segment.transcript.trim() !== '').sort((a, b) => began(a) - began(b));
      const start = spoken.length ? began(spoken[0]!) : 0;
      const lines: TranscriptLine[] = spoken.map((segment) => {
        const endMs = Date.parse(segment.created) - start;
        return { alias: segment.speaker.alias, text: segment.transcript, startMs: endMs - segment.duration * 1000, endMs };
      });
      const slug = room.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'room';
      const filename = `${slug}-${room.id}-${participant.language}.${format}`;
      return { filename, body: format === 'txt' ? transcriptText(room.title, lines) : transcriptSubRip(lines) };
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
}

export type RoomsService = ReturnType<typeof createRoomsService>;
