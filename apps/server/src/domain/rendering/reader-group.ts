// Who reads a text the same way: a reader group. A chat message is rendered once per (language,
// tone) and a room's utterance once per (language, tone) and spoken once per (language, tone,
// voice); everything per reader is built once per group: the translation asked for, the rendering
// saved, the view pushed (to the group's live room), the notification's text. The group's key,
// equality and "does it need a rendering?" rule are written here once for chats, rooms and the
// translator.
import type { Language, Tone } from '@parla/contract/constants';
import type { TranslationProvider } from './translation/provider';

/** Readers of a text in one language and tone (a chat's members, a room's listeners' texts). */
export interface ReaderGroup {
  language: string;
  tone: string;
}

/** Listeners of a room who also hear the text in one voice. */
export interface ListenerGroup extends ReaderGroup {
  male: boolean;
}

const hasVoice = (group: ReaderGroup | ListenerGroup): group is ListenerGroup => 'male' in group && typeof group.male === 'boolean';

/**
 * The group's key: equal groups, equal keys (`es:FORMAL`, a listener group's `es:FORMAL:m`). Maps
 * and sets of groups use it, and so do their live rooms' names.
 */
export const groupKey = (group: ReaderGroup | ListenerGroup): string =>
  hasVoice(group) ? `${group.language}:${group.tone}:${group.male ? 'm' : 'f'}` : `${group.language}:${group.tone}`;

/** The key of the text a group reads (listener groups of either voice read the same one). */
export const textKey = (group: ReaderGroup): string => `${group.language}:${group.tone}`;

/** Whether two groups (or rows of a rendering) read the same text. */
export const sameText = (a: ReaderGroup, b: ReaderGroup): boolean => a.language === b.language && a.tone === b.tone;

/** Whether two listener groups (or rows of a voice) hear the same text in the same voice. */
export const sameVoice = (a: ListenerGroup, b: ListenerGroup): boolean => sameText(a, b) && a.male === b.male;

/** Only the group of a row that carries more (a member, a rendering). */
export const readerGroup = (row: ReaderGroup): ReaderGroup => ({ language: row.language, tone: row.tone });

/** A room participant's listener group (their row names the voice `maleVoice`). */
export const listenerGroup = (participant: { language: string; tone: string; maleVoice: boolean }): ListenerGroup => ({
  language: participant.language,
  tone: participant.tone,
  male: participant.maleVoice,
});

/** Each group once, the first of equal ones kept, by `key` (the group's own key by default). */
export function distinctGroups<G extends ReaderGroup>(groups: Iterable<G>, key: (group: G) => string = groupKey): G[] {
  const seen = new Map<string, G>();
  for (const group of groups) {
    const k = key(group);
    if (!seen.has(k)) seen.set(k, group);
  }
  return [...seen.values()];
}

// ---- what a group needs of a text ----

/**
 * What a reader group needs of a text written in `source`:
 * - `original`: the original as it is (their language, and no tone the provider can give);
 * - `rendering`: a rendering the provider can make (another language, or a tone it writes);
 * - `unreachable`: a rendering the provider cannot make (a missing pair): they get the original.
 */
export type GroupNeed = 'original' | 'rendering' | 'unreachable';

export type TargetProvider = Pick<TranslationProvider, 'supportsTone' | 'canTranslate'>;

export function groupNeed(provider: TargetProvider, source: string, group: ReaderGroup): GroupNeed {
  if (group.language === source) return group.tone !== 'DEFAULT' && provider.supportsTone ? 'rendering' : 'original';
  return provider.canTranslate(source as Language, group.language as Language) ? 'rendering' : 'unreachable';
}

/** Whether a group gets anything but the original as it is (a rendering, or word that none can be made). */
export const wantsRendering = (provider: TargetProvider, source: string, group: ReaderGroup) => groupNeed(provider, source, group) !== 'original';

/** The groups among `groups` (each text once) whose rendering the provider can make. */
export const groupsToRender = <G extends ReaderGroup>(provider: TargetProvider, source: string, groups: Iterable<G>): G[] =>
  distinctGroups(groups, textKey).filter((group) => groupNeed(provider, source, group) === 'rendering');

/** Whether a listener group hears a voice of the text (not the speaker's own language). */
export const needsVoice = (source: string, group: ReaderGroup) => group.language !== source;

/** The tone really asked of the provider for a group (one that knows no tone writes the default). */
export const askedTone = (provider: Pick<TranslationProvider, 'supportsTone'>, tone: Tone): Tone => (provider.supportsTone ? tone : 'DEFAULT');
