// Decoding pictures people send (chat attachments, avatars), issue 31: a picture's cost is its
// decoded pixels, not its bytes (a 165 KB PNG of 6,300 × 6,300 took seconds of CPU and 100 MB),
// and decoding shares libuv's thread pool with password hashing, so sixteen such uploads made
// another person's sign-in take 8 s. Three bounds:
// - per file: a picture may have at most PIXELS_PER_BYTE pixels per byte sent (photographs and
//   screenshots have far fewer), FLOOR_PIXELS whatever its size, and the caller's cap;
// - per person: at most `userPixelsPerMinute` decoded pixels a minute in this process (the CPU
//   spent is this process's), refused with 429 past it;
// - per process: one decode at a time in a queue of its own (a sharp call holds one pool thread,
//   and libvips works on one thread: sharp.concurrency(1)), at most a message's attachments
//   waiting per person (the web client sends them at once) and QUEUE_LENGTH in all, 429 beyond.
import sharp from 'sharp';
import { LIMITS } from '@parla/contract/constants';
import { throttled } from './errors';
import { createWorkBudget } from './work-budget';

sharp.concurrency(1);

/** Pixels a picture may hold per byte of its file (a JPEG photograph has about 4, a flat screenshot under 40). */
export const PIXELS_PER_BYTE = 64;
/** Pixels any picture may hold, however small its file (a 2,800 × 2,800 picture). */
export const FLOOR_PIXELS = 8_000_000;
const QUEUE_LENGTH = 32;

/** The pixels a picture of `bytes` may hold, at most `cap`. */
export const allowedPixels = (bytes: number, cap: number) => Math.min(cap, Math.max(FLOOR_PIXELS, bytes * PIXELS_PER_BYTE));

export interface PictureHeader {
  format: string | undefined;
  pixels: number;
}

/** The picture's format and pixel count from its header (no decoding); format undefined for no picture. */
export async function readHeader(data: Buffer): Promise<PictureHeader> {
  try {
    const { format, width = 0, height = 0 } = await sharp(data, { limitInputPixels: false }).metadata();
    return { format, pixels: width * height };
  } catch {
    return { format: undefined, pixels: 0 };
  }
}

export interface PictureDecoder {
  /**
   * Runs `work` (the decoding of a picture of `pixels`) for `userId` when its turn comes: charged
   * to their budget first, then one at a time. 429 when the budget or the queue is full.
   */
  decode<T>(userId: number, pixels: number, work: () => Promise<T>): Promise<T>;
}

export function createPictureDecoder(options: { userPixelsPerMinute: number; queueLength?: number; queuePerUser?: number }): PictureDecoder {
  const queueLength = options.queueLength ?? QUEUE_LENGTH;
  const queuePerUser = options.queuePerUser ?? LIMITS.attachmentsPerMessage;
  const budget = createWorkBudget(options.userPixelsPerMinute);
  const waiting = new Map<number, number>();
  let queued = 0;
  let tail: Promise<unknown> = Promise.resolve();

  return {
    async decode(userId, pixels, work) {
      if (queued >= queueLength || (waiting.get(userId) ?? 0) >= queuePerUser) throw throttled(1);
      budget.check(userId, pixels);
      budget.spend(userId, pixels);
      queued++;
      waiting.set(userId, (waiting.get(userId) ?? 0) + 1);
      const turn = tail.then(work);
      // The next decode waits for this one, whatever its outcome.
      tail = turn.catch(() => undefined);
      try {
        return await turn;
      } finally {
        queued--;
        const left = (waiting.get(userId) ?? 1) - 1;
        if (left > 0) waiting.set(userId, left);
        else waiting.delete(userId);
      }
    },
  };
}
