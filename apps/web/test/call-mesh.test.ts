// Entering a call again (issue 37): a return keeps the connections carrying media to people
// still there; otherwise every connection starts afresh. Whoever has no connection is offered one.
import { describe, expect, it } from 'vitest';
import { callToken, reconcile } from '../src/features/rooms/call/mesh';

const peer = (participantId: number) => ({ participantId, alias: `P${participantId}` });

describe('reconcile', () => {
  const held = [
    { participantId: 1, connection: 'connected' as const },
    { participantId: 2, connection: 'disconnected' as const },
    { participantId: 3, connection: 'failed' as const },
    { participantId: 4, connection: 'connected' as const },
  ];

  it('keeps connections carrying media on a return, starts those down afresh, drops who left, offers to a newcomer', () => {
    expect(reconcile(held, [peer(1), peer(2), peer(3), peer(5)], true)).toEqual({ keep: [1], close: [2, 3, 4], offer: [2, 3, 5] });
  });

  it('starts everything afresh when it is not a return (the others dropped this tab)', () => {
    expect(reconcile(held, [peer(1), peer(2)], false)).toEqual({ keep: [], close: [1, 2, 3, 4], offer: [1, 2] });
  });

  it('offers to everyone on a first entry', () => {
    expect(reconcile([], [peer(7), peer(8)], false)).toEqual({ keep: [], close: [], offer: [7, 8] });
  });
});

describe('callToken', () => {
  it('is a fresh name the server accepts each time', () => {
    const names = new Set(Array.from({ length: 50 }, () => callToken()));
    expect(names.size).toBe(50);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  });
});
