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
    ],
  },
});
