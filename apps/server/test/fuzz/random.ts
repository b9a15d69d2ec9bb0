// A small seeded PRNG (mulberry32) so the bad-input guard sends the same requests on every run;
// forks are keyed by label, so adding an operation does not change the cases of the others.

/** The seed of a run: GUARD_SEED (decimal or 0x hex) when set, else a fixed default. */
export function guardSeed(env: string | undefined = process.env.GUARD_SEED): number {
  const DEFAULT = 0x5eed_ba11;
  if (env === undefined || env.trim() === '') return DEFAULT;
  const value = Number(env.trim());
  if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) throw new Error(`GUARD_SEED must be an integer 0..2^32-1, got "${env}"`);
  return value >>> 0;
}

export function formatSeed(seed: number): string {
  return `0x${seed.toString(16).padStart(8, '0')}`;
}

/** FNV-1a of a label, to derive one stream per operation from the run's seed. */
function hash(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export class Random {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** mulberry32: a float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)]!;
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  }

  /** An independent stream for `label`, the same for the same run seed. */
  fork(label: string): Random {
    return new Random(hash(label, this.seed));
  }
}
