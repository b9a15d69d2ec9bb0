// Says which of a chat's or a room's chosen languages the server's translator cannot translate
// between (what is written or said in them stays as it is), or that it translates nothing.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatList } from '../lib/format';
import { languageName } from '../lib/languages';
import { translationInfoQuery } from '../lib/queries';
import { groupPairs, providerName, unreachablePairs } from '../lib/translation-info';

export function ReachNote({ languages, texts }: { languages: readonly string[]; texts: 'chats.form' | 'rooms.form' }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const info = useQuery(translationInfoQuery).data;
  if (!info || languages.length < 2) return null;
  const pairs = groupPairs(unreachablePairs(info, languages));
  if (pairs.length === 0) return null;
  const provider = providerName(info);
  if (provider === undefined) return <p className="reach-note">{t(`${texts}.translationOff`)}</p>;
  const name = (code: string) => languageName(code, uiLang, { inSentence: true });
  const shown = pairs.slice(0, 4).map((pair) => t(pair.both ? 'chats.form.pairBoth' : 'chats.form.pairOne', { a: name(pair.a), b: name(pair.b) }));
  const list = formatList(pairs.length > 4 ? [...shown, t('chats.form.pairsMore', { count: pairs.length - 4 })] : shown, uiLang);
  return <p className="reach-note">{t(`${texts}.unreachable`, { provider, pairs: list })}</p>;
}
