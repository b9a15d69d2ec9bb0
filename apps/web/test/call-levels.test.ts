// The level meter and the speaking highlight (issue 37: a short beep sampled now and then was
// missed, and the meter blinked): a level shows the loudest moment, then falls step by step.
import { describe, expect, it } from 'vitest';
import { activeSpeaker, nextLevel } from '../src/features/rooms/call/use-mesh-call';

describe('nextLevel', () => {
  it('shows a louder moment at once', () => {
    expect(nextLevel(0.1, 0.5)).toBe(0.5);
  });

  it('falls gradually after a short sound, still showing it at the next steps', () => {
    let shown = nextLevel(0, 0.4);
    const steps = [shown];
    for (let step = 0; step < 4; step++) steps.push((shown = nextLevel(shown, 0)));
    expect(steps[0]).toBe(0.4);
    for (let index = 1; index < steps.length; index++) {
      expect(steps[index]).toBeGreaterThan(0);
      expect(steps[index]).toBeLessThan(steps[index - 1]!);
    }
  });

  it('reaches silence rather than creeping towards it for ever', () => {
    let shown = 1;
    for (let step = 0; step < 20; step++) shown = nextLevel(shown, 0);
    expect(shown).toBe(0);
  });

  it('never shows more than full scale', () => {
    expect(nextLevel(0, 1.7)).toBe(1);
  });
});

describe('activeSpeaker', () => {
  it('is the loudest above the floor, or nobody', () => {
    expect(activeSpeaker(new Map([['a', 0.2], ['b', 0.5]]))).toBe('b');
    expect(activeSpeaker(new Map([['a', 0.02]]))).toBeNull();
    expect(activeSpeaker(new Map())).toBeNull();
  });
});
