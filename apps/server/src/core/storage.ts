// Stored files (avatars now, audio later): DATA_DIR/media on disk, served under /media/.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface Storage {
  put(key: string, body: Buffer): Promise<void>;
  remove(key: string): Promise<void>;
  url(key: string): string;
  readonly root: string;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/;

export function createDiskStorage(options: { dataDir: string; publicUrl: string }): Storage {
  const root = path.join(options.dataDir, 'media');
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
    url: (key) => `${options.publicUrl}/media/${key}`,
  };
}
