import { defineConfig } from 'vitest/config';

export default defineConfig({
  // vite.config.ts sets the real hash; tests pass their own build id where it matters.
  define: { __LOCALES_BUILD__: JSON.stringify('test') },
  test: {
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 20_000,
    // Vitest leaves one core free by default: on two cores that is one worker and twice the time.
    maxWorkers: 2,
  },
});
