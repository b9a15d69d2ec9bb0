// The pairs of an APY (its /listPairs) as a directed graph, and the route from one of our
// languages to another: a pair, or the shortest chain of at most APERTIUM_MAX_CHAIN pairs,
// pivots (apertium-languages.ts) first on ties. Read by the Apertium provider only.
import type { Language } from '@parla/contract/constants';
import {
  APERTIUM_LANGUAGES,
  APERTIUM_MAX_CHAIN,
  APERTIUM_PIVOTS,
  UNUSABLE_APERTIUM_PAIRS,
} from './apertium-languages';

export type Pair = readonly [source: string, target: string];

const baseCode = (code: string) => code.split('_')[0] ?? code;

function sourceCodes(language: Language): string[] {
  return [...APERTIUM_LANGUAGES[language].codes, language];
}

function targetCodes(language: Language): string[] {
  const entry = APERTIUM_LANGUAGES[language];
  return [...(entry.variants ?? []), ...entry.codes, language];
}

const pivotRank = (code: string) => {
  const rank = APERTIUM_PIVOTS.indexOf(code);
  return rank === -1 ? APERTIUM_PIVOTS.length : rank;
};

/** APY's pairs as a directed graph, with the shortest chain between two of our languages. */
export class PairGraph {
  /** Identifies the set of pairs, to tell whether a new /listPairs changed anything. */
  readonly signature: string;
  private readonly next = new Map<string, string[]>();
  private readonly routes = new Map<string, readonly string[] | null>();

  constructor(pairs: readonly Pair[]) {
    const usable = pairs.filter(([a, b]) => a !== b && !UNUSABLE_APERTIUM_PAIRS.has(`${baseCode(a)}>${baseCode(b)}`));
    const keys = [...new Set(usable.map(([a, b]) => `${a}>${b}`))].sort();
    this.signature = keys.join(' ');
    for (const key of keys) {
      const [a, b] = key.split('>') as [string, string];
      const list = this.next.get(a) ?? [];
      list.push(b);
      this.next.set(a, list);
    }
    for (const list of this.next.values()) list.sort((x, y) => pivotRank(x) - pivotRank(y) || x.localeCompare(y));
  }

  get size() {
    return this.signature === '' ? 0 : this.signature.split(' ').length;
  }

  route(source: Language, target: Language): readonly string[] | null {
    const key = `${source}>${target}`;
    let route = this.routes.get(key);
    if (route === undefined) {
      route = this.find(source, target);
      this.routes.set(key, route);
    }
    return route;
  }

  private find(source: Language, target: Language): readonly string[] | null {
    const from = sourceCodes(source);
    const to = targetCodes(target);
    // Serbian, Croatian and Bosnian are one Apertium language: no pair between them, and a round
    // trip through English would read worse than the original.
    if (from.some((code) => to.map(baseCode).includes(baseCode(code)))) return null;
    let best: string[] | null = null;
    for (const start of from) {
      for (const goal of to) {
        const path = this.shortest(start, goal);
        if (path && (!best || path.length < best.length)) best = path;
      }
    }
    return best;
  }

  /** Breadth-first, pivots first on ties; at most APERTIUM_MAX_CHAIN pairs. */
  private shortest(start: string, goal: string): string[] | null {
    if (!this.next.has(start)) return null;
    const previous = new Map<string, string>([[start, '']]);
    let frontier = [start];
    for (let hops = 1; hops <= APERTIUM_MAX_CHAIN && frontier.length > 0; hops++) {
      const following: string[] = [];
      for (const node of frontier) {
        for (const neighbour of this.next.get(node) ?? []) {
          if (previous.has(neighbour)) continue;
          previous.set(neighbour, node);
          if (neighbour === goal) {
            const path = [goal];
            for (let at = node; at !== ''; at = previous.get(at) ?? '') path.unshift(at);
            return path;
          }
          following.push(neighbour);
        }
      }
      frontier = following;
    }
    return null;
  }
}
