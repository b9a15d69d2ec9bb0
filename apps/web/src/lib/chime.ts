// The in-tab notification: while Parla is open but hidden (another tab, a minimised window), a
// new message from someone else plays a short two-note chime, unless the reader turned sounds off
// (profile) or muted the chat; the tab's title already counts what is unread. Web Audio, no file.

const SOUND_KEY = 'parla.sound';
/** "Play a sound for new messages while Parla is in the background": on unless turned off on this browser. */
export const soundOn = () => localStorage.getItem(SOUND_KEY) !== 'off';
export const setSoundOn = (on: boolean) => localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');

let context: AudioContext | undefined;
let last = 0;
/** At most one chime in this many milliseconds (a burst of messages rings once). */
const QUIET_MS = 3000;

export function chime(): void {
  if (!document.hidden || !soundOn() || typeof AudioContext === 'undefined') return;
  const now = Date.now();
  if (now - last < QUIET_MS) return;
  last = now;
  try {
    context ??= new AudioContext();
    // A page the reader never touched may not play sound (autoplay rules): then it stays quiet.
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
    const start = context.currentTime;
    for (const [offset, frequency] of [[0, 880], [0.12, 1320]] as const) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.12, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.25);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(start + offset);
      oscillator.stop(start + offset + 0.3);
    }
  } catch {
    // No audio on this device: the title still counts the news.
  }
}
