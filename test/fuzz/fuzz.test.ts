/**
 * The property-based fuzz suite (hardening): requests drawn from the endpoint table, through both
 * adapters. Seeded: a failure prints its seed, and `FUZZ_SEED=<seed>` replays it; `FUZZ_RUNS` sets
 * the cases per endpoint and adapter (CI: a few thousand in all). `npm run fuzz` runs a long campaign.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { nameOf } from '../../src/endpoints.js';
import { fuzzedEndpoints, requestsOf } from './requests.js';
import { type AdapterKind, check, open, type Target } from './run.js';

const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const runs = Number(process.env.FUZZ_RUNS ?? 40);

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
        statuses.push(await check(target, request));
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    expect(statuses.length).toBeGreaterThanOrEqual(runs);
  });
});
