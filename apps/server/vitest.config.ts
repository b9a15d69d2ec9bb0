import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The longest files start first (on a fresh clone Vitest knows no durations and goes by file size,
 * so the guard, a small file driving test/fuzz/, would start last and leave a worker idle).
 */
const LONGEST = ['test/bad-input.test.ts', 'test/rooms-api.test.ts', 'test/chats.test.ts', 'test/minimal-bodies.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = LONGEST.findIndex((name) => file.moduleId.endsWith(name));
      return at === -1 ? LONGEST.length : at;
    };
    return sorted.map((file, index) => ({ file, index })).sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index).map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: a few files at a time, each with its own server and database.
    maxWorkers: 2,
    // A worker keeps the modules it imported for its next file (each file still starts its own
    // servers and databases): importing the server's graph anew took ~3 s of CPU per file.
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
