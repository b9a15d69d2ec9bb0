// What the segments calls do: a room's utterances uploaded, listed and corrected (the transcript,
// a listener's rendering, the glossary applied again), their audio files and the whole transcript.
import { API } from '@parla/contract/api';
import { cleanText } from '@parla/contract/fields';
import { callOpen } from '@parla/contract/policies';
import { LIMITS, type Language, type RoomRole, type RoomState, type Tone } from '@parla/contract/constants';
import type { Segment, SegmentsPage } from '@parla/contract/rooms';
import type { GlossaryApply } from '@parla/contract/glossary';
import { fieldError, notFound } from '../../platform/errors';
import { offsetPage } from '../../platform/pages';
import { permissionDenied } from '../../platform/policy';
import { fillPath } from '../../platform/routes';
import type { GlossaryAccess } from '../../domain/glossary/glossary';
import { glossaryTouches } from '../../domain/rendering/translation/glossary';
import { distinctGroups, listenerGroup, sameText, type ListenerGroup } from '../../domain/rendering/reader-group';
import { translationGlossary } from '../../domain/glossary/glossary';
import type { TranslationGlossary } from '../../domain/rendering/translation/provider';
import { RENDER_QUEUE, type RoomsPipeline } from './pipeline';
import { roomPolicy } from './policy';
import type { ParticipantRow, SegmentRow, SegmentWithSpeaker } from './repository';
import type { Listener } from './segments';
import { randomName, type RoomsShared } from './service-shared';
import { streamWav, STREAM_BYTES_PER_MS } from '../../domain/rendering/speech/streaming';
import { transcriptSubRip, transcriptText, type TranscriptLine } from './transcript';

export function createSegments(
  { deps, load, link }: RoomsShared,
  { queue, queueTranscription, snapshot, push, pushSegment, announceWithdrawn, renderFirst }: RoomsPipeline,
  /** The room's glossary access (service.ts): applying the glossary again is its editors'. */
  glossaryAccess: (roomId: number, userId: number) => Promise<GlossaryAccess>,
) {
  const { repo, presenter, transcription, recordings, log } = deps;

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

  return {
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
      const access = await glossaryAccess(roomId, userId);
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
     * An utterance recognised while it was spoken (interpreting/): stored with its transcript and
     * rendered at once, as an uploaded one is once transcribed. Checked as an upload is (a
     * participant who may speak, the room Live, the quotas); undefined when it held no words.
     */
    async storeStreamed(roomId: number, userId: number, utterance: { pcm: Buffer; transcript: string; endedAt: Date }): Promise<SegmentRow | undefined> {
      const { room, participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'speak');
      if (!callOpen(room.state as RoomState)) throw fieldError('audio', 'roomNotLive', undefined, 'room_not_live');
      const transcript = cleanText(utterance.transcript).trim();
      if (!transcript) return undefined;
      const wav = streamWav(utterance.pcm);
      await deps.quotas.checkRecording(userId, roomId, wav.length);
      const audioKey = `rooms/${roomId}/${randomName()}.wav`;
      await recordings.put(audioKey, wav);
      let segment: SegmentRow | undefined;
      try {
        segment = await repo.insertSegment({
          roomId,
          speakerId: participant.id,
          language: participant.language,
          audioKey,
          audioBytes: wav.length,
          createdAt: utterance.endedAt,
          durationSeconds: utterance.pcm.length / STREAM_BYTES_PER_MS / 1000,
          transcription: 'done',
          transcript,
          clientId: null,
        });
      } catch (error) {
        await recordings.remove(audioKey);
        throw error;
      }
      if (!segment) throw notFound();
      await pushSegment('segment:created', segment.id);
      await renderFirst(segment);
      return segment;
    },

    /**
     * Whether `userId` may stream speech into the room now (checked on every frame, at most once a
     * second): their participation, or why not (`not_found`, `may_not_speak`, `not_live`).
     */
    async streamGate(roomId: number, userId: number): Promise<{ participant: ParticipantRow; room: { domain: string } } | 'not_found' | 'may_not_speak' | 'not_live'> {
      const found = await repo.findParticipation(roomId, userId);
      if (!found?.participant.joinedAt) return 'not_found';
      if (!roomPolicy.may(found.participant.roomRole as RoomRole, 'speak')) return 'may_not_speak';
      if (!callOpen(found.room.state as RoomState)) return 'not_live';
      return { participant: found.participant, room: { domain: found.room.domain } };
    },

    /** What partial captions of the room are rendered for: its listening groups, and the glossary with its participants' names. */
    async captionsContext(roomId: number): Promise<{ groups: ListenerGroup[]; glossary: TranslationGlossary }> {
      const [everyone, names, terms] = await Promise.all([repo.everyone(roomId), repo.participantNames(roomId, true), deps.glossaries.terms({ roomId })]);
      return { groups: distinctGroups(everyone.filter((row) => row.joinedAt).map(listenerGroup)), glossary: translationGlossary(names, terms) };
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
  };
}
