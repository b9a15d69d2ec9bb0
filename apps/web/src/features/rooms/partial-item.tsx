// A partial caption in the transcript (issue 33): who is speaking and their words so far, in the
// listener's language when translated (else as said, marked so), provisional until the stored
// segment takes its place; and how far interpreting is behind when it falls behind.
import { useTranslation } from 'react-i18next';
import { SPEECH_STREAM } from '@parla/contract/interpreting';
import type { ShownPartial } from './partials';

export function PartialItem({ partial, readerLanguage, isMe }: { partial: ShownPartial; readerLanguage: string; isMe: boolean }) {
  const { t } = useTranslation();
  const behind = Math.round(partial.behindMs / 1000);
  return (
    <li className={`segment segment-partial${isMe ? ' mine' : ''}`} data-utterance={partial.utterance}>
      <div className="segment-head">
        <span className="segment-speaker" dir="auto">
          {isMe ? t('rooms.segment.you') : partial.speaker.alias}
        </span>
        <span className="segment-provisional">{partial.state === 'stored' ? t('call.partial.finishing') : t('call.partial.speaking')}</span>
      </div>
      <p className="segment-text" dir="auto" lang={partial.translated ? readerLanguage : partial.language}>
        {partial.text}
      </p>
      {!partial.translated && partial.language !== readerLanguage && <p className="segment-status note">{t('call.partial.untranslated')}</p>}
      {partial.behindMs > SPEECH_STREAM.behindNoticeMs && <p className="segment-status note">{t('call.partial.behind', { count: behind })}</p>}
    </li>
  );
}
