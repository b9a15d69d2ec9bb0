// Partial renderings (issue 33): the words of an utterance still being spoken, rendered for every
// reader group while they come, provisional and replaced by the item's real render (render.ts)
// once it ends. Groups of the words' own language (and no tone to write) get the words at once;
// the others get a translation made at most every `everyMs`, one provider call for all their
// groups, never two at once (what came meanwhile is merged into the next), and never twice for
// the same words. Nothing is saved: a partial lives on the listeners' screens until the item
// takes its place.
import type { Domain, Language, Tone } from '@parla/contract/constants';
import { distinctGroups, groupNeed, textKey, type ReaderGroup, type TargetProvider } from './reader-group';
import type { TranslationGlossary, TranslationRequest, TranslationResult } from './translation/provider';

/** What a group is shown now: the words as said, or their rendering in the group's language and tone. */
export interface PartialText {
  text: string;
  translated: boolean;
}

export interface PartialSteps<G extends ReaderGroup> {
  provider: TargetProvider;
  /** The reader groups now (asked once per translation: someone may have joined). */
  groups(): Promise<readonly G[]>;
  /** One provider call (the translator's, its cache left out: partials are not said twice). */
  translate(request: TranslationRequest): Promise<{ results: readonly TranslationResult[] }>;
  /** Pushes what each group is shown now (only groups with something to show are given). */
  push(shown: ReadonlyMap<string, { group: G; shown: PartialText }>): void;
  domain: Domain;
  glossary(): Promise<TranslationGlossary>;
  /** A translation failed (the provider is down): logged, the partials go on untranslated until the next. */
  failed(error: unknown): void;
}

export interface PartialRendering {
  /** The words so far (the recogniser's latest hypothesis). */
  update(words: string): void;
  /** The item took the partial's place (or nothing was kept): no more pushes. Resolves once a running translation ended. */
  stop(): Promise<void>;
  /** Provider calls made so far (the benchmark's "calls per utterance"). */
  readonly calls: number;
  /** The latest words given. */
  readonly words: string;
}

/** Pushes of the words themselves at most this often (a recogniser revises them every frame). */
const PUSH_EVERY_MS = 200;

export function createPartialRendering<G extends ReaderGroup>(source: Language, everyMs: number, steps: PartialSteps<G>): PartialRendering {
  let words = '';
  let pushedWords = '';
  /** The latest rendering by text key, and the words it renders. */
  const rendered = new Map<string, { words: string; text: string }>();
  let translatedWords = '';
  let lastCallAt = 0;
  let lastPushAt = 0;
  let calls = 0;
  let stopped = false;
  let translating: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let groupsNow: readonly G[] = [];

  function show() {
    if (stopped) return;
    const shown = new Map<string, { group: G; shown: PartialText }>();
    for (const group of groupsNow) {
      const need = groupNeed(steps.provider, source, group);
      if (need === 'rendering') {
        const made = rendered.get(textKey(group));
        if (made) shown.set(textKey(group), { group, shown: { text: made.text, translated: true } });
      } else if (words) {
        // Their language, or a pair nobody can make: the words as said.
        shown.set(textKey(group), { group, shown: { text: words, translated: false } });
      }
    }
    pushedWords = words;
    lastPushAt = Date.now();
    if (shown.size) steps.push(shown);
  }

  async function translate() {
    const asked = words;
    lastCallAt = Date.now();
    groupsNow = distinctGroups(await steps.groups(), textKey);
    const targets = groupsNow.filter((group) => groupNeed(steps.provider, source, group) === 'rendering');
    if (targets.length === 0) translatedWords = asked;
    else if (asked !== translatedWords) {
      calls++;
      try {
        const { results } = await steps.translate({
          text: asked,
          source,
          targets: targets.map((group) => ({ language: group.language as Language, tone: group.tone as Tone })),
          domain: steps.domain,
          glossary: await steps.glossary(),
          cache: false,
        });
        targets.forEach((group, index) => {
          const result = results[index];
          if (result?.state === 'done') rendered.set(textKey(group), { words: asked, text: result.content });
        });
        translatedWords = asked;
      } catch (error) {
        steps.failed(error);
      }
    }
    show();
  }

  function schedule() {
    if (stopped || translating || timer) return;
    const now = Date.now();
    const due = words !== translatedWords ? Math.max(lastCallAt + everyMs, now) : words !== pushedWords ? Math.max(lastPushAt + PUSH_EVERY_MS, now) : undefined;
    if (due === undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (stopped) return;
      if (words === translatedWords) {
        show();
        return schedule();
      }
      translating = translate().finally(() => {
        translating = undefined;
        schedule();
      });
    }, due - now);
  }

  return {
    update(next) {
      const clean = next.trim();
      if (stopped || clean === words) return;
      words = clean;
      if (!clean) return;
      // The same-language groups see the words without waiting for a translation.
      if (Date.now() - lastPushAt >= PUSH_EVERY_MS && !translating && groupsNow.length) show();
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await translating;
    },
    get calls() {
      return calls;
    },
    get words() {
      return words;
    },
  };
}
