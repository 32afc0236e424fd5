import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The tests Stryker runs (`npm run mutation`): the platform's, the SDK's and the sign-on tests,
 * the ones that reach the mutated rules. Left out, as they reach no rule these miss and are slow:
 * the browser tests, child processes (CLI, bulk sync, demo, snippets, the missing-msw check), the
 * fuzz and ReDoS sweeps and the document checks. The lists replace the base config's (a merge
 * would join them).
 */
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/mock/*.test.ts', 'test/sdk/*.test.ts', 'test/sign-on/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      'test/mock/cli*.test.ts',
      'test/mock/msw-missing.test.ts',
      'test/mock/tags-redos.test.ts',
      // Resource bounds and files, not rules: a soak of tens of thousands of requests, the capture
      // command and the state file. They reach the mutated rules only in passing, and every
      // surviving mutant would pay for them (about 16 s together).
      'test/mock/bounded-memory.test.ts',
      'test/mock/capture.test.ts',
      'test/mock/state-file.test.ts',
    ],
  },
});
