// "Ana is writing…": who is writing in a chat (each `typing` event holds TYPING_HOLD_MS), and the
// sender's side, which tells the server at most once every TYPING_SEND_INTERVAL_MS while typing.
import { TYPING_HOLD_MS } from '@parla/contract/constants';
import type { TypingEvent } from '@parla/contract/live';

export { TYPING_HOLD_MS };

export const TYPING_SEND_INTERVAL_MS = 2_000;

export interface Typist {
  memberId: number;
  nickName: string;
  /** Epoch milliseconds when it stops showing. */
  until: number;
}

/** The writers after a `typing` event: the member's hold starts again. */
export function addTypist(typists: readonly Typist[], event: TypingEvent, now: number, holdMs = TYPING_HOLD_MS): Typist[] {
  const rest = typists.filter((typist) => typist.memberId !== event.member.id);
  return [...rest, { memberId: event.member.id, nickName: event.member.nickName, until: now + holdMs }];
}

/** A member's message arrived: they stopped writing it. */
export const removeTypist = (typists: readonly Typist[], memberId: number) => typists.filter((typist) => typist.memberId !== memberId);

/** Those still writing at `now`, in the order they started. */
export const activeTypists = (typists: readonly Typist[], now: number) => typists.filter((typist) => typist.until > now);

/** When the next one expires (to re-render then), if any. */
export const nextExpiry = (typists: readonly Typist[]) => (typists.length ? Math.min(...typists.map((typist) => typist.until)) : undefined);

/** Calls `send` on the first keystroke and then at most once per interval while keystrokes go on. */
export function createTypingThrottle(send: () => void, intervalMs = TYPING_SEND_INTERVAL_MS, now: () => number = Date.now) {
  let last = -Infinity;
  return {
    typed() {
      const time = now();
      if (time - last < intervalMs) return;
      last = time;
      send();
    },
    /** After sending the message: the next keystroke announces writing again at once. */
    reset() {
      last = -Infinity;
    },
  };
}
