// Stored files on disk: public ones (avatars) in DATA_DIR/media, served under /media/; private
// ones (room recordings and voices) in DATA_DIR/private, served only through routes that check
// the caller.
import { mkdirSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface Storage {
  put(key: string, body: Buffer): Promise<void>;
  remove(key: string): Promise<void>;
  removeAll(prefix: string): Promise<void>;
  /** Public storage: the URL the file is served at. */
  url(key: string): string;
  readonly root: string;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/;

export function createDiskStorage(options: { dataDir: string; publicUrl: string; folder?: 'media' | 'private' }): Storage {
  const root = path.join(options.dataDir, options.folder ?? 'media');
  // Exists from the start, so the file routes have their root.
  mkdirSync(root, { recursive: true });
  const resolve = (key: string) => {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key ${key}`);
    return path.join(root, key);
  };
  return {
    root,
    async put(key, body) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, body);
    },
    async remove(key) {
      await rm(resolve(key), { force: true });
    },
    /** Removes a folder of keys (a room's recordings). */
    async removeAll(prefix) {
      await rm(resolve(prefix), { recursive: true, force: true });
    },
    url: (key) => `${options.publicUrl}/media/${key}`,
  };
}
