/**
 * The property-based fuzz suite (hardening): requests drawn from the endpoint table, through both
 * adapters. Seeded with a fixed seed, so CI runs the same cases every time (`FUZZ_SEED=<seed>`
 * draws others, and replays a failure: the seed is printed); `FUZZ_RUNS` sets the cases per
 * endpoint and adapter (40: CI runs 80 per endpoint). Then a few bodies over the 1 MiB limit on
 * any endpoint, each `413 payload_too_large` with nothing changed. `npm run fuzz` runs a long
 * campaign with a new seed each time.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  authenticateWithTicket,
  type Endpoint,
  nameOf,
  ssoAuthenticate,
  ssoCreateSession,
  ssoIdentify,
  ssoLogout,
  ssoSessionStatus,
} from '../../src/endpoints.js';
import {
  faultName,
  fuzzedEndpoints,
  oversizedRequestsOf,
  requestsOf,
  ssoFaultsOf,
  ssoOperations,
  ssoRequest,
} from './requests.js';
import { type AdapterKind, check, open, type Target } from './run.js';

/** What a whole request token gets from each SSO operation: the status and the answer's err or sts. */
const VERIFIED = new Map<Endpoint, string>([
  [authenticateWithTicket, '200 loggedin'],
  [ssoIdentify, '302'],
  [ssoCreateSession, '200 anon'],
  [ssoSessionStatus, '200 anon'],
  [ssoAuthenticate, '200 loggedin'],
  [ssoLogout, '200 terminated'],
]);

/** CI's seed: the same cases on every run. */
const DEFAULT_SEED = 20_240_607;
const seed = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
/** CI's cases per endpoint and adapter (what docs/security.md states). */
const CI_RUNS = 40;
const runs = Number(process.env.FUZZ_RUNS ?? CI_RUNS);
/** Bodies over the limit per adapter: each sends over 1 MiB. */
const oversizedRuns = 6;

test("docs/security.md's figure of CI's fuzzing: the cases per endpoint, times two adapters, times the table's entries", () => {
  const file = new URL('../../docs/security.md', import.meta.url);
  const page = readFileSync(file, 'utf8');
  const total = (CI_RUNS * 2 * fuzzedEndpoints.length).toLocaleString('en-US');
  const figure = `(${total} with the table's ${fuzzedEndpoints.length} endpoints)`;
  expect(page).toContain(`CI runs ${CI_RUNS} cases`);
  // An entry added to the table moves the figure: UPDATE_GENERATED=1 writes the new one.
  if (process.env.UPDATE_GENERATED === '1')
    writeFileSync(file, page.replace(/\([\d,]+ with the table's \d+ endpoints\)/, figure));
  else
    expect(page, 'docs/security.md is stale: UPDATE_GENERATED=1 npx vitest run test/fuzz/fuzz.test.ts').toContain(
      figure,
    );
});

describe.each<AdapterKind>(['msw', 'http'])('fuzzing every endpoint of the table through %s', (kind) => {
  let target: Target;
  beforeAll(async () => {
    console.log(`[fuzz] ${kind}: seed ${seed}, ${runs} cases per endpoint (replay with FUZZ_SEED=${seed})`);
    target = await open(kind);
  });
  afterAll(() => target.close());

  test.each(fuzzedEndpoints.map((e) => [nameOf(e), e] as const))('%s', async (_, endpoint) => {
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(requestsOf(endpoint), async (request) => {
        target.platform.reset();
        statuses.push((await check(target, request)).status);
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    expect(statuses.length).toBeGreaterThanOrEqual(runs);
  });

  test.each(ssoOperations.map((e) => [nameOf(e), e] as const))(
    '%s: a validly signed request token is verified; each claim broken in turn, and each bad signature, algorithm or lifetime, is refused as invalid_request_token with nothing changed',
    async (_, endpoint) => {
      target.platform.reset();
      expect((await check(target, ssoRequest(endpoint, { kind: 'none' }))).outcome).toBe(VERIFIED.get(endpoint));
      const refused = new Set<string>();
      const faults = ssoFaultsOf(endpoint);
      // check() also throws when a broken token is not refused, or a refusal changed the state.
      for (const fault of faults) {
        const { outcome } = await check(target, ssoRequest(endpoint, fault));
        refused.add(outcome);
        if (!outcome.includes('invalid_request_token') && outcome !== '400')
          expect.fail(`${faultName(fault)}: ${outcome}`);
      }
      expect(faults.length).toBeGreaterThan(25);
      expect(
        [...refused].every((o) => (endpoint === ssoIdentify ? o === '400' : o.endsWith('invalid_request_token'))),
      ).toBe(true);
    },
  );

  test('bodies over the limit (beyond 1 MiB) on any endpoint: 413 payload_too_large as JSON; nothing changes', async () => {
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(oversizedRequestsOf(fuzzedEndpoints), async (request) => {
        target.platform.reset();
        statuses.push((await check(target, request)).status);
      }),
      { seed, numRuns: oversizedRuns, endOnFailure: true },
    );
    expect(statuses).toEqual(Array(oversizedRuns).fill(413));
  });
});
