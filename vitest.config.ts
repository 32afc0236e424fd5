import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    restoreMocks: true,
    testTimeout: 15_000,
    // Chosen for speed on a 2-core machine, measured (`npx vitest run`, idle):
    // - `isolate: false`: a worker keeps its module cache from one file to the next, so zod, msw,
    //   the endpoint table and the demo seed are imported once per worker, not once per file (63 s
    //   of a 213 s run was importing). Every file already starts its own servers and platforms and
    //   resets them per test; a file that mocks a module does it on a fresh registry and puts the
    //   real one back (test/openapi-version.test.ts).
    // - `maxWorkers: 2`: vitest's default in a run is one fewer than the cores, one worker here;
    //   much of the suite waits on child processes and Chromium, so two keep both cores busy
    //   (125 s against 150 s with one; three workers were slower, 145 s).
    // - `pool: 'forks'`: as fast as threads here (125 s and 127 s), and a test that signals or
    //   spawns processes stays apart from the others' threads.
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
  },
});
