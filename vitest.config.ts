import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    exclude: ['test/browser/**'],
    restoreMocks: true,
    testTimeout: 15_000,
  },
});
