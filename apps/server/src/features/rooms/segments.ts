// A segment as one listener gets it: in their language and tone, spoken in their voice, once each
// step is done; the original transcript (and recording) until then, with the state of each step.
import type { Language, RoomRole, Tone } from '@parla/contract/constants';
import type { PipelineState, Segment } from '@parla/contract/rooms';
import type { SynthesisProvider } from '../../domain/rendering/speech/provider';
import { groupNeed, needsVoice, sameText, sameVoice, wantsRendering, type TargetProvider, type ListenerGroup } from '../../domain/rendering/reader-group';
import { wordDiff } from './diff';
import type { SegmentContext as RoomsSegmentContext, SegmentRenderingRow, SegmentWithSpeaker } from './repository';

/** A listener: their participation and how they hear this segment (their own tone for it included). */
export interface Listener extends ListenerGroup {
  participantId: number;
}

export type SegmentContext = Pick<RoomsSegmentContext, 'renderings' | 'voices'> & Partial<Pick<RoomsSegmentContext, 'correctors'>>;

/** A listener's correction: who made it (their alias; null once they are gone), when, and the machine's text. */
function presentCorrection(rendering: SegmentRenderingRow, context: SegmentContext): NonNullable<Segment['correction']> {
  const alias = rendering.correctedBy === null ? undefined : context.correctors?.get(rendering.correctedBy);
  return {
    by: rendering.correctedBy !== null && alias !== undefined ? { id: rendering.correctedBy, alias } : null,
    at: rendering.correctedAt!.toISOString(),
    machine: rendering.machineTranscript!,
  };
}

export function createSegmentPresenter(deps: {
  translation: TargetProvider;
  synthesis: Pick<SynthesisProvider, 'canSpeak'>;
  audioUrl: (roomId: number, key: string) => string;
}) {
  const { translation, synthesis, audioUrl } = deps;

  return {
    present({ segment, speaker }: SegmentWithSpeaker, listener: Listener, context: SegmentContext): Segment {
      const created = segment.createdAt.toISOString();
      const isMe = speaker.id === listener.participantId;
      const source = segment.language;
      const transcriptionDone = segment.transcription === 'done';
      const base = {
        id: segment.id,
        created,
        isMe,
        speaker: {
          id: speaker.id,
          alias: speaker.alias,
          language: speaker.language as Language,
          roomRole: speaker.roomRole as RoomRole,
          tone: speaker.tone as Tone,
          maleVoice: speaker.maleVoice,
        },
        transcription: segment.transcription,
        edited: segment.editedAt !== null,
        duration: Math.round(segment.durationSeconds * 10) / 10,
        correction: null,
        missedTerms: [] as string[],
      };
      const recording = isMe || listener.language === source ? audioUrl(segment.roomId, segment.audioKey) : null;
      const original = {
        ...base,
        language: source as Language,
        tone: 'DEFAULT' as Tone,
        transcript: segment.transcript,
        rawSegment: null,
        transcriptDiff: segment.previousTranscript !== null ? wordDiff(segment.previousTranscript, segment.transcript) : [],
        audioFile: recording,
      };
      if (!transcriptionDone) {
        const waiting: PipelineState = segment.transcription === 'pending' ? 'pending' : 'none';
        return { ...original, translation: waiting, speech: needsVoice(source, listener) ? waiting : 'none' };
      }
      // Nothing was said (silence, noise): nothing to translate or speak.
      if (!segment.transcript.trim() || !wantsRendering(translation, source, listener)) return { ...original, translation: 'none', speech: 'none' };

      const rendering = context.renderings.find(
        (row) => row.segmentId === segment.id && sameText(row, listener) && row.version === segment.version,
      );
      const textState: PipelineState = rendering?.state ?? (groupNeed(translation, source, listener) === 'rendering' ? 'pending' : 'none');
      if (textState !== 'done' || rendering?.transcript == null) {
        return { ...original, translation: textState, speech: needsVoice(source, listener) && textState === 'pending' ? 'pending' : 'none' };
      }
      let speech: PipelineState = 'none';
      let audioFile = recording;
      if (needsVoice(source, listener)) {
        const voice = context.voices.find(
          (row) =>
            row.segmentId === segment.id && sameVoice(row, listener) && row.version === segment.version,
        );
        speech = voice?.state ?? (synthesis.canSpeak(listener.language as Language) ? 'pending' : 'none');
        if (speech === 'done' && voice?.audioKey) audioFile = audioUrl(segment.roomId, voice.audioKey);
      }
      return {
        ...base,
        language: listener.language as Language,
        tone: (rendering.renderedTone ?? listener.tone) as Tone,
        transcript: rendering.transcript,
        rawSegment: { id: segment.id, language: source as Language, transcript: segment.transcript, created },
        transcriptDiff: rendering.previousTranscript !== null ? wordDiff(rendering.previousTranscript, rendering.transcript) : [],
        audioFile,
        translation: 'done',
        speech,
        correction: rendering.machineTranscript !== null && rendering.correctedAt !== null ? presentCorrection(rendering, context) : null,
        missedTerms: rendering.machineTranscript === null ? (rendering.missedTerms ?? []) : [],
      };
    },
  };
}

export type SegmentPresenter = ReturnType<typeof createSegmentPresenter>;
