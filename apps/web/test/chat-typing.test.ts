import { describe, expect, it } from 'vitest';
import { TYPING_HOLD_MS, activeTypists, addTypist, createTypingThrottle, nextExpiry, removeTypist } from '../src/features/chats/typing';

const event = (id: number, nickName: string) => ({ chatId: 1, member: { id, nickName } });

describe('who is writing', () => {
  it('shows a member for TYPING_HOLD_MS after each typing event', () => {
    let typists = addTypist([], event(1, 'Ana'), 0);
    expect(activeTypists(typists, TYPING_HOLD_MS - 1).map((typist) => typist.nickName)).toEqual(['Ana']);
    expect(activeTypists(typists, TYPING_HOLD_MS)).toEqual([]);
    // A new event holds again, without listing Ana twice.
    typists = addTypist(typists, event(1, 'Ana'), 3000);
    expect(typists).toHaveLength(1);
    expect(activeTypists(typists, 3000 + TYPING_HOLD_MS - 1)).toHaveLength(1);
    expect(nextExpiry(typists)).toBe(3000 + TYPING_HOLD_MS);
  });

  it('lists several writers in the order they started, each expiring on its own', () => {
    let typists = addTypist([], event(1, 'Ana'), 0);
    typists = addTypist(typists, event(2, 'Bo'), 1000);
    expect(activeTypists(typists, 1500).map((typist) => typist.nickName)).toEqual(['Ana', 'Bo']);
    expect(activeTypists(typists, TYPING_HOLD_MS + 500).map((typist) => typist.nickName)).toEqual(['Bo']);
    expect(nextExpiry([])).toBeUndefined();
  });

  it('stops showing a member whose message arrived', () => {
    const typists = addTypist(addTypist([], event(1, 'Ana'), 0), event(2, 'Bo'), 0);
    expect(removeTypist(typists, 1).map((typist) => typist.nickName)).toEqual(['Bo']);
  });
});

describe('telling the others one is writing', () => {
  it('sends on the first keystroke, then at most once every 2 s while typing goes on', () => {
    let time = 0;
    let sent = 0;
    const throttle = createTypingThrottle(() => sent++, 2000, () => time);
    for (time = 0; time < 5000; time += 100) throttle.typed();
    expect(sent).toBe(3); // at 0, 2000 and 4000
    time = 4500;
    throttle.reset();
    throttle.typed();
    expect(sent).toBe(4);
  });
});
