// One text rendered per reader group, the product's central step, written once for chat messages
// and room utterances: find the groups lacking the current version → translate them in one
// provider call → save the texts and push them to their groups → (rooms: voices beside the save)
// → ask again for what a provider left out → queue the item again for a group that arrived
// meanwhile; after the last try, the groups still waiting get the original (`lackingGroups` tells
// the give-up which). A feature says how each step is done for its rows; rooms' speed-ups (the
// texts saved while the voices are made, voices pushed with their text) are its `beside` step.
// Live interpreting will add partial renderings of an utterance still being spoken: a step before
// `saveTexts` that saves and pushes a provisional text, with the same groups and the same pushes.
import { RetryLater } from '../../platform/jobs';
import { groupKey, groupsToRender, textKey, type ReaderGroup, type TargetProvider } from './reader-group';
import type { TranslationResult } from './translation/provider';

/** A group's new text: made (`done`), or none to make (`none`: a pair the provider lacks). */
export interface RenderedText<G extends ReaderGroup> {
  group: G;
  state: 'done' | 'none';
  content: string | null;
  /** The tone the provider really applied (DEFAULT from one that knows no tone). */
  renderedTone: string | null;
  /** Glossary terms whose required rendering the provider left out (asked twice). */
  missedTerms: string[] | null;
}

/** What the provider's answer made of the groups lacking a text. */
export interface TextsOutcome<G extends ReaderGroup> {
  texts: RenderedText<G>[];
  /** Left out of an answer that brought the others: still pending, asked for again by the job's retry. */
  retry: G[];
  /** The new texts by `textKey` (rooms voice a group as soon as its text is known). */
  translated: Map<string, string>;
}

/** The item being rendered, as it is now. */
export interface RenderItem<G extends ReaderGroup> {
  /** Names it in errors and logs: `message 12`, `segment 7`. */
  name: string;
  text: string;
  /** The text's language. */
  source: string;
  /** Its reader groups now (a chat's members, a room's listeners with their own tones). */
  groups: readonly G[];
  /** Whether a group's text of the current version is settled already (done, none or failed). */
  settled(group: ReaderGroup): boolean;
  /** Groups whose pending text must be settled though no reader of theirs remains (they left meanwhile). */
  orphans?: readonly G[];
}

export interface RenderSteps<G extends ReaderGroup> {
  provider: TargetProvider;
  /** One provider call for the groups lacking a text; `cached` settles once the translator's cache is written. */
  translate(groups: readonly G[]): Promise<{ results: readonly TranslationResult[]; cached?: Promise<void> }>;
  /** Saves the texts (and those left for a retry, if the feature keeps them pending) and pushes the groups whose text was written. */
  saveTexts(outcome: TextsOutcome<G>): Promise<void>;
  /**
   * Work beside the texts' save, started once the answer is known (before the save ends): rooms'
   * voices. Settles before the render does; a failure fails the render (a RetryLater sets its wait).
   */
  beside?(outcome: TextsOutcome<G> | undefined, textsSaved: Promise<void>): Promise<unknown>[];
  /** The reader groups once the render is done: one that was not among the item's makes it queued again. */
  groupsNow(): Promise<readonly ReaderGroup[]>;
  requeue(): Promise<unknown>;
}

/** The item's groups lacking a text of its current version that the provider can make (each text once), and its orphans. */
export function lackingGroups<G extends ReaderGroup>(provider: TargetProvider, item: RenderItem<G>): G[] {
  const lacking = groupsToRender(provider, item.source, item.groups).filter((group) => !item.settled(group));
  const orphans = (item.orphans ?? []).filter((orphan) => !lacking.some((group) => textKey(group) === textKey(orphan)));
  return [...lacking, ...orphans];
}

/** The provider's results for `groups` (in their order) as texts, retries and the new texts by key. */
export function outcomeOf<G extends ReaderGroup>(groups: readonly G[], results: readonly TranslationResult[]): TextsOutcome<G> {
  const outcome: TextsOutcome<G> = { texts: [], retry: [], translated: new Map() };
  groups.forEach((group, index) => {
    const result = results[index];
    if (result?.state === 'retry') return void outcome.retry.push(group);
    if (result?.state === 'done') {
      outcome.translated.set(textKey(group), result.content);
      outcome.texts.push({ group, state: 'done', content: result.content, renderedTone: result.tone, missedTerms: result.missedTerms ?? null });
    } else {
      outcome.texts.push({ group, state: 'none', content: null, renderedTone: null, missedTerms: null });
    }
  });
  return outcome;
}

/**
 * Renders the item for every group lacking its current version. Throws when something is left to
 * try again (a provider's failure, a text left out, a voice): the job retries, and its retry finds
 * what was saved settled. A provider's Retry-After (RetryLater) sets when, the longest one first.
 */
export async function renderItem<G extends ReaderGroup>(item: RenderItem<G>, steps: RenderSteps<G>): Promise<void> {
  const lacking = lackingGroups(steps.provider, item);
  if (lacking.length === 0 && !steps.beside) return;
  let outcome: TextsOutcome<G> | undefined;
  let textsSaved: Promise<void> = Promise.resolve();
  let cached: Promise<void> = Promise.resolve();
  if (lacking.length) {
    const answer = await steps.translate(lacking);
    cached = answer.cached ?? cached;
    outcome = outcomeOf(lacking, answer.results);
    textsSaved = steps.saveTexts(outcome);
  }
  const beside = steps.beside?.(outcome, textsSaved) ?? [];
  // Everything settles before the render does: a failure is retried only once the others ended.
  const failures = (await Promise.allSettled([cached, textsSaved, ...beside])).flatMap((settled) => (settled.status === 'rejected' ? [settled.reason as unknown] : []));
  const waits = failures.filter((reason): reason is RetryLater => reason instanceof RetryLater).sort((a, b) => b.seconds - a.seconds);
  const failure = waits[0] ?? failures[0];
  if (failure) throw failure;
  if (outcome?.retry.length) throw new Error(`${item.name}: not rendered for ${outcome.retry.map(textKey).join(', ')}, will retry`);
  // A reader who arrived or changed language while this ran was not among its groups, and their
  // read left the work to this render: one more render does it.
  const now = await steps.groupsNow();
  if (now.some((group) => !item.groups.some((old) => groupKey(old) === groupKey(group)))) await steps.requeue();
}
