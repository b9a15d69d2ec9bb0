// The translated voices of a call: played once each in the order things were said, a short wait
// for an earlier one still being made, nothing from before joining, none of one's own or of
// one's own language, none heard while switched off; the speaker's own voice lowered meanwhile.
import { describe, expect, it } from 'vitest';
import {
  BEHIND_MAX_MS,
  DUCKED_VOLUME,
  HISTORY_MS,
  ORDER_WAIT_MS,
  livekitIdentity,
  markHeard,
  mayGetVoice,
  nextVoice,
  readyVoices,
  seeSegments,
  speakerVolumes,
  startQueue,
} from '../src/features/rooms/call/voice-queue';
import { BASE_TIME, at, pendingSegment, segment } from './room-fixtures';

const joined = BASE_TIME + 100_000;

describe('the voice queue', () => {
  it('catches up with the room: a backlog waiting past BEHIND_MAX_MS is skipped but for the newest', () => {
    let queue = startQueue([], joined);
    const voices = [segment(21), segment(22), segment(23)];
    queue = seeSegments(queue, voices, joined);
    // Within the limit, they play in order.
    expect(nextVoice(queue, voices, 'es', joined + BEHIND_MAX_MS - 1)).toEqual({ play: voices[0] });
    // Past it, the older two are skipped (said so by the caller) and the newest plays.
    expect(nextVoice(queue, voices, 'es', joined + BEHIND_MAX_MS + 1)).toEqual({ play: voices[2], skip: [21, 22] });
    // One voice alone, however late, still plays: nothing newer to catch up with.
    queue = markHeard(queue, [21, 22]);
    expect(nextVoice(queue, voices, 'es', joined + 60_000)).toEqual({ play: voices[2] });
  });

  it('does not play what was said before joining, only what comes after', () => {
    const old = segment(1, { created: new Date(joined - HISTORY_MS - 1).toISOString() });
    const voicedAlready = segment(2, { created: new Date(joined - 5_000).toISOString() });
    const stillComing = pendingSegment(3, { created: new Date(joined - 5_000).toISOString() });
    const queue = startQueue([old, voicedAlready, stillComing], joined);
    expect([...queue.heard].sort()).toEqual([1, 2]);
    // The recent one still being made plays once its voice is ready.
    const ready = segment(3, { created: stillComing.created });
    expect(nextVoice(queue, [old, voicedAlready, ready], 'es', joined + 1000)).toEqual({ play: ready });
  });

  it('plays in the order things were said, each once', () => {
    let queue = startQueue([], joined);
    const later = segment(12);
    const earlier = segment(11);
    queue = seeSegments(queue, [later, earlier], joined);
    const first = nextVoice(queue, [later, earlier], 'es', joined);
    expect(first).toEqual({ play: earlier });
    queue = markHeard(queue, [11]);
    expect(nextVoice(queue, [later, earlier], 'es', joined)).toEqual({ play: later });
    queue = markHeard(queue, [12]);
    expect(nextVoice(queue, [later, earlier], 'es', joined)).toBeNull();
  });

  it('waits a moment for an earlier segment whose voice is still being made, then goes on without it', () => {
    let queue = startQueue([], joined);
    const translating = segment(20, { translation: 'pending', speech: 'pending', audioFile: null, rawSegment: null, language: 'en' });
    const ready = segment(21);
    queue = seeSegments(queue, [translating, ready], joined);
    expect(nextVoice(queue, [translating, ready], 'es', joined + 1000)).toEqual({ waitUntil: joined + ORDER_WAIT_MS });
    // The earlier one is voiced in time: it goes first.
    const voiced = segment(20);
    expect(nextVoice(queue, [voiced, ready], 'es', joined + 2000)).toEqual({ play: voiced });
    // It never comes: after the wait the later one plays.
    expect(nextVoice(queue, [translating, ready], 'es', joined + ORDER_WAIT_MS)).toEqual({ play: ready });
  });

  it('does not wait for what will never be voiced for this listener', () => {
    const queue = startQueue([], joined);
    const own = pendingSegment(30, { isMe: true });
    const sameLanguage = pendingSegment(31, { language: 'es' });
    const noTranscriber = segment(32, { transcription: 'none', translation: 'none', speech: 'none', rawSegment: null, language: 'en', transcript: '', audioFile: '/a.wav' });
    const notTranslated = segment(33, { translation: 'none', speech: 'none', rawSegment: null, language: 'en', audioFile: null });
    const noVoice = segment(34, { speech: 'none', audioFile: null });
    const ready = segment(35);
    const all = [own, sameLanguage, noTranscriber, notTranslated, noVoice, ready];
    expect(all.map((item) => mayGetVoice(item, 'es'))).toEqual([false, false, false, false, false, false]);
    expect(nextVoice(seeSegments(queue, all, joined), all, 'es', joined)).toEqual({ play: ready });
  });

  it('never plays one of the listener\'s own segments, nor a recording of the same language', () => {
    const queue = startQueue([], joined);
    const own = segment(40, { isMe: true, rawSegment: null, language: 'es', audioFile: '/own.wav', speech: 'none' });
    const sameLanguage = segment(41, { rawSegment: null, language: 'es', speech: 'none', translation: 'none', audioFile: '/rec.wav' });
    expect(nextVoice(seeSegments(queue, [own, sameLanguage], joined), [own, sameLanguage], 'es', joined)).toBeNull();
  });

  it('lets ready voices go unheard while switched off', () => {
    let queue = startQueue([], joined);
    const a = segment(50);
    const b = pendingSegment(51);
    queue = seeSegments(queue, [a, b], joined);
    expect(readyVoices(queue, [a, b])).toEqual([50]);
    queue = markHeard(queue, readyVoices(queue, [a, b]));
    // Switched on again: only what becomes ready afterwards plays.
    const bReady = segment(51);
    expect(nextVoice(queue, [a, bReady], 'es', joined)).toEqual({ play: bReady });
  });

  it('keeps the same queue when nothing changes', () => {
    const queue = startQueue([segment(60, { created: at(-1000) })], joined);
    expect(seeSegments(queue, [segment(60)], joined)).toBe(queue);
    expect(markHeard(queue, [60])).toBe(queue);
  });
});

describe('ducking', () => {
  it('lowers only the speaker whose translation plays', () => {
    const ana = livekitIdentity(7);
    const ben = livekitIdentity(8);
    expect(ana).toBe('participant-7');
    const volumes = speakerVolumes([ana, ben], segment(1));
    expect(volumes.get(ana)).toBe(DUCKED_VOLUME);
    expect(volumes.get(ben)).toBe(1);
  });

  it('leaves everyone as they are when nothing plays', () => {
    const volumes = speakerVolumes([livekitIdentity(7), livekitIdentity(8)], null);
    expect([...volumes.values()]).toEqual([1, 1]);
  });
});
