// One segment of a room's transcript as its reader gets it, shared by the room page and the call:
// who spoke and when, the text in the reader's language, where its pipeline stands said plainly
// (transcribing…, translating…, "no transcript: no speech recognition for Japanese"), the
// original on demand, the words changed by the last correction, a play button for its audio,
// and the speaker's own correction in place.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@parla/contract/constants';
import type { Segment } from '@parla/contract/rooms';
import { InlineEditor } from '../../components/inline-editor';
import { translationInfoQuery } from '../../lib/queries';
import { languageName } from '../../lib/languages';
import { providerName } from '../../lib/translation-info';
import { addLiveListener } from '../../lib/live';
import { notify } from '../../lib/toast';
import { correctSegmentRendering, editSegment, freshSession, restoreSegmentRendering, roomKeys, withdrawSegmentCorrections } from './api';
import { CorrectionNote, MissedTermsNote } from '../../components/correction';
import type { GlossaryDraft } from '../../components/glossary';
import { correctionDraft } from '../../lib/correction-draft';
import { canEditSegment } from './controls';
import { formatSaidAt } from '../../lib/format';
import { heardNothing, originalTranscript, segmentStatus, sourceLanguage, upsertSegment, type SegmentPages, type SegmentStatus } from './segments';

/** The translator's name for notes ("Apertium cannot translate…"); null while unknown, undefined when translation is off. */
export function useTranslator(): string | null | undefined {
  const info = useQuery(translationInfoQuery).data;
  return info ? providerName(info) : null;
}

/** Plays one segment's audio at a time on demand (the call's queue has its own player). */
export function useClipPlayer() {
  const audio = useRef<HTMLAudioElement | null>(null);
  const [playingId, setPlayingId] = useState<number | null>(null);
  useEffect(
    () => () => {
      audio.current?.pause();
    },
    [],
  );
  const toggle = useCallback(
    async (segment: Segment) => {
      if (!segment.audioFile) return;
      const player = (audio.current ??= new Audio());
      if (playingId === segment.id) {
        player.pause();
        setPlayingId(null);
        return;
      }
      player.pause();
      await freshSession();
      player.onended = () => setPlayingId(null);
      player.onerror = () => setPlayingId(null);
      player.src = segment.audioFile;
      setPlayingId(segment.id);
      player.play().catch(() => setPlayingId(null));
    },
    [playingId],
  );
  return { playingId, toggle };
}

function statusText(t: (key: string, options?: Record<string, unknown>) => string, status: SegmentStatus, segment: Segment, readerLanguage: string, uiLang: string, translator: string | null | undefined): string {
  if (!status) return '';
  const name = (code: string) => languageName(code, uiLang, { inSentence: true });
  if (status.kind === 'busy') {
    if (status.step === 'translating') return t('rooms.segment.translating', { language: name(readerLanguage) });
    return t(`rooms.segment.${status.step}`);
  }
  switch (status.note) {
    case 'noTranscriber':
      return t('rooms.segment.noTranscriber', { language: name(sourceLanguage(segment)) });
    case 'noVoice':
      return t('rooms.segment.noVoice', { language: name(readerLanguage) });
    case 'notTranslated': {
      const pair = { from: name(sourceLanguage(segment)), to: name(readerLanguage) };
      if (translator === undefined) return t('rooms.segment.translationOff');
      if (translator === null) return t('rooms.segment.notTranslated', pair);
      return t('rooms.segment.notTranslatedBy', { ...pair, provider: translator });
    }
    case 'transcriptionFailed':
    case 'nothingHeard':
    case 'translationFailed':
    case 'voiceFailed':
      return t(`rooms.segment.${status.note}`);
  }
}

export function SegmentItem({
  roomId,
  segment,
  readerLanguage,
  translator,
  clip,
  speaking = false,
  onAddToGlossary,
  mayWithdraw = false,
}: {
  roomId: number;
  segment: Segment;
  readerLanguage: string;
  translator: string | null | undefined;
  clip: ReturnType<typeof useClipPlayer>;
  /** Its translated voice is playing now (the call). */
  speaking?: boolean;
  /** For those who edit the glossary: a listener's correction turned into a term. */
  onAddToGlossary?: ((draft: GlossaryDraft) => void) | undefined;
  /** The owner: withdraws every listener's correction of the utterance. */
  mayWithdraw?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const queryClient = useQueryClient();
  const [original, setOriginal] = useState(false);
  const [changes, setChanges] = useState(false);
  const [editing, setEditing] = useState(false);
  /** The listener corrects the translation they read and hear. */
  const [correcting, setCorrecting] = useState(false);
  const status = segmentStatus(segment, readerLanguage);
  const raw = segment.rawSegment;
  const who = segment.isMe ? t('rooms.segment.you') : segment.speaker.alias;
  const hasText = segment.transcript.trim() !== '' && !heardNothing(segment);
  const editable = canEditSegment(segment);
  const diff = segment.transcriptDiff;
  const playingClip = clip.playingId === segment.id;
  return (
    <li className={`segment${segment.isMe ? ' mine' : ''}${speaking ? ' speaking' : ''}`} aria-current={speaking || undefined}>
      <div className="segment-head">
        <span className="segment-speaker" dir="auto">
          {who}
        </span>
        <time dateTime={segment.created}>{formatSaidAt(segment.created, uiLang)}</time>
        {speaking && <span className="segment-speaking">{t('rooms.segment.speaking')}</span>}
      </div>
      {editing ? (
        <EditSegment roomId={roomId} segment={segment} onDone={() => setEditing(false)} />
      ) : correcting ? (
        <CorrectSegment roomId={roomId} segment={segment} onDone={() => setCorrecting(false)} />
      ) : (
        hasText && (
          <p className="segment-text" dir="auto" lang={segment.language}>
            {segment.transcript}
          </p>
        )
      )}
      {segment.correction && raw && !correcting && (
        <CorrectionNote
          by={segment.correction.by?.alias ?? null}
          machine={
            <p dir="auto" lang={segment.language}>
              {segment.correction.machine}
            </p>
          }
          onRestore={async () => {
            if (await restoreSegmentRendering(roomId, segment.id)) {
              const machine = segment.correction?.machine ?? segment.transcript;
              queryClient.setQueryData<SegmentPages>(roomKeys.segments(roomId), (data) => upsertSegment(data, { ...segment, transcript: machine, correction: null }));
            }
          }}
          onAddToGlossary={
            onAddToGlossary &&
            (() =>
              onAddToGlossary(
                correctionDraft({ original: raw.transcript, originalLanguage: raw.language, machine: segment.correction?.machine ?? '', corrected: segment.transcript, readerLanguage: segment.language }),
              ))
          }
        />
      )}
      {raw && <MissedTermsNote terms={segment.missedTerms} className="segment-status note" />}
      {status && (
        <p className={status.kind === 'busy' ? 'segment-status busy' : 'segment-status note'}>
          {status.kind === 'busy' && <span className="spinner spinner-small" aria-hidden="true" />}
          {statusText(t, status, segment, readerLanguage, uiLang, translator)}
        </p>
      )}
      {original && raw && (
        <div className="segment-original">
          <span className="segment-original-label">{t('rooms.segment.originalIn', { language: languageName(raw.language, uiLang) })}</span>
          <p dir="auto" lang={raw.language}>
            {raw.transcript}
          </p>
        </div>
      )}
      {changes && diff.length > 0 && (
        <p className="segment-diff" dir="auto">
          <span className="visually-hidden">{t('rooms.segment.changesLabel')}</span>
          {diff.map((word, index) =>
            word.startsWith('+') ? (
              <ins key={index}>{word.slice(1)} </ins>
            ) : word.startsWith('-') ? (
              <del key={index}>{word.slice(1)} </del>
            ) : (
              <span key={index}>{word} </span>
            ),
          )}
        </p>
      )}
      {!editing && !correcting && (
        <div className="segment-actions">
          {segment.audioFile && (
            <button
              type="button"
              className="link-button"
              aria-pressed={playingClip}
              aria-label={segment.isMe ? t('rooms.segment.playMine') : t('rooms.segment.playOf', { name: segment.speaker.alias })}
              onClick={() => void clip.toggle(segment)}
            >
              {playingClip ? t('rooms.segment.stop') : t('rooms.segment.play')}
            </button>
          )}
          {raw && (
            <button type="button" className="link-button" aria-expanded={original} onClick={() => setOriginal((shown) => !shown)}>
              {original ? t('rooms.segment.hideOriginal') : t('rooms.segment.showOriginal')}
            </button>
          )}
          {segment.edited && (
            <button type="button" className="link-button" aria-expanded={changes} disabled={diff.length === 0} onClick={() => setChanges((shown) => !shown)}>
              {changes ? t('rooms.segment.hideChanges') : t('rooms.segment.edited')}
            </button>
          )}
          {editable && (
            <button type="button" className="link-button" onClick={() => setEditing(true)} aria-label={t('rooms.segment.editLabel', { time: formatSaidAt(segment.created, uiLang) })}>
              {hasText ? t('rooms.segment.edit') : t('rooms.segment.write')}
            </button>
          )}
          {raw && hasText && (
            <button type="button" className="link-button" onClick={() => setCorrecting(true)} aria-label={t('corrections.correctLabel', { time: formatSaidAt(segment.created, uiLang) })}>
              {t('corrections.correct')}
            </button>
          )}
          {mayWithdraw && hasText && (
            <button
              type="button"
              className="link-button"
              onClick={() => void withdrawSegmentCorrections(roomId, segment.id).then((done) => done && notify.success(t('corrections.withdrawn')))}
              aria-label={t('corrections.withdrawLabel', { time: formatSaidAt(segment.created, uiLang) })}
            >
              {t('corrections.withdraw')}
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/** The speaker corrects what was understood (re-translated and spoken again for everyone). */
function EditSegment({ roomId, segment, onDone }: { roomId: number; segment: Segment; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <InlineEditor
      id={`segment-edit-${segment.id}`}
      className="edit-segment"
      label={t('rooms.segment.editField')}
      hint={t('rooms.segment.editHint')}
      initial={originalTranscript(segment)}
      lang={segment.rawSegment?.language ?? segment.language}
      maxLength={LIMITS.transcriptMax}
      rows={(text) => Math.min(6, Math.max(2, Math.ceil(text.length / 60)))}
      save={async (transcript) => {
        const updated = await editSegment(roomId, segment.id, transcript);
        if (updated) queryClient.setQueryData<SegmentPages>(roomKeys.segments(roomId), (data) => upsertSegment(data, updated));
        return updated !== undefined;
      }}
      onDone={onDone}
    />
  );
}

/** The listener corrects the translation, for everyone hearing it the same way (spoken again; the machine's text is kept). */
function CorrectSegment({ roomId, segment, onDone }: { roomId: number; segment: Segment; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <InlineEditor
      id={`segment-correct-${segment.id}`}
      className="edit-segment"
      label={t('corrections.field')}
      hint={t('corrections.hintVoice')}
      initial={segment.transcript}
      lang={segment.language}
      maxLength={LIMITS.transcriptMax}
      rows={(text) => Math.min(6, Math.max(2, Math.ceil(text.length / 60)))}
      save={async (transcript) => {
        const updated = await correctSegmentRendering(roomId, segment.id, transcript);
        if (updated) queryClient.setQueryData<SegmentPages>(roomKeys.segments(roomId), (data) => upsertSegment(data, updated));
        return updated !== undefined;
      }}
      onDone={onDone}
    />
  );
}

/**
 * Says new lines of the others aloud to screen readers once their text is final for the reader
 * (the list itself is not a live region: its lines change several times each).
 */
export function TranscriptAnnouncer({ roomId, readerLanguage }: { roomId: number; readerLanguage: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const said = useRef(new Set<number>());
  useEffect(() => {
    const hear = ({ roomId: id, segment }: { roomId: number; segment: Segment }) => {
      if (id !== roomId || segment.isMe || said.current.has(segment.id)) return;
      const status = segmentStatus(segment, readerLanguage);
      if (status?.kind === 'busy' && status.step !== 'voicing') return;
      if (!segment.transcript.trim() || heardNothing(segment)) return;
      said.current.add(segment.id);
      setText(t('rooms.segment.announce', { name: segment.speaker.alias, text: segment.transcript }));
    };
    return addLiveListener({ 'segment:created': hear, 'segment:rendered': hear });
  }, [roomId, readerLanguage, t]);
  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true">
      {text}
    </div>
  );
}
