// A per-person budget of work a minute, for costs a request count cannot express (issue 31): the
// decoded pixels of pictures, the time of searches. Kept in this process's memory, as the work it
// bounds is this process's (its CPU, its in-process database). Past the budget: 429 with the
// seconds until the minute is over.
import { throttled } from './errors';

export interface WorkBudget {
  /** Throws 429 when `amount` more would pass the person's budget of this minute (0 checks only that some is left). */
  check(userId: number, amount?: number): void;
  /** Counts work done. */
  spend(userId: number, amount: number): void;
}

export function createWorkBudget(perMinute: number): WorkBudget {
  const used = new Map<number, { amount: number; since: number }>();
  const current = (userId: number, now: number) => {
    let entry = used.get(userId);
    if (!entry || now - entry.since >= 60_000) {
      entry = { amount: 0, since: now };
      used.set(userId, entry);
      // Old minutes go once the map grows.
      if (used.size > 10_000) for (const [id, old] of used) if (now - old.since >= 60_000) used.delete(id);
    }
    return entry;
  };
  return {
    check(userId, amount = 0) {
      if (perMinute <= 0) return;
      const now = Date.now();
      const entry = current(userId, now);
      if (entry.amount + amount > perMinute || (amount === 0 && entry.amount >= perMinute)) throw throttled(Math.max(1, Math.ceil((entry.since + 60_000 - now) / 1000)));
    },
    spend(userId, amount) {
      if (perMinute <= 0) return;
      current(userId, Date.now()).amount += amount;
    },
  };
}
