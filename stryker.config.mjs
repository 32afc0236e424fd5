// @ts-check
/**
 * Mutation testing of the rules where a bug hurts users most (`npm run mutation`, not run in CI).
 * Survivors that cannot change behaviour are listed, with the reason, in mutation-equivalents.md.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  // Not `related`: each mutant's tests come from the per-test coverage, and finding related files costs a module graph walk per run.
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    // Tokens, tickets, SSO sessions and their tokens, and login freezing.
    'mock/core/tokens.ts',
    'mock/core/tickets.ts',
    'mock/core/sso.ts',
    'mock/core/sso-tokens.ts',
    // The admin guard.
    'mock/core/security.ts',
    // The user-product lifecycle and the subscription-system sync.
    'mock/core/user-products.ts',
    'mock/core/subscription-system.ts',
    // Request validation.
    'mock/core/validate.ts',
    // The SDK's retry and token-refresh rules, and an attempt's timeout (the line ranges of `timed`,
    // and of `Attempts#nextWait` to `#isCallerError`: move them with the code).
    'src/retry.ts',
    'src/auth.ts',
    'src/attempts.ts:227-314',
    'src/attempts.ts:705-729',
  ],
  coverageAnalysis: 'perTest',
  // A static mutant (code run as its module loads) would need its modules loaded again, and the
  // vitest runner activates every mutant after they are loaded: with the module cache kept from one
  // test file to the next (isolate: false), it would survive whatever the tests check
  // (stryker-js#6209). They are reported as Ignored; mutation-equivalents.md says which they are.
  ignoreStatic: true,
  concurrency: 2,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  thresholds: { high: 95, low: 90, break: null },
  timeoutMS: 20000,
  dryRunTimeoutMinutes: 15,
  // Vitest does not type-check, and a test compares a generated source file byte for byte.
  disableTypeChecks: false,
};
