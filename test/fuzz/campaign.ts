/**
 * `npm run fuzz`: a long fuzz campaign over every endpoint of the table, through both adapters.
 * Prints the counts by status and by endpoint, and exits 1 at the first broken property (with its
 * seed and the request). `FUZZ_RUNS` cases per endpoint and adapter (default 500), `FUZZ_SEED`.
 */
import fc from 'fast-check';
import { nameOf } from '../../src/endpoints.js';
import { fuzzedEndpoints, requestsOf } from './requests.js';
import { type AdapterKind, check, open } from './run.js';

const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const runs = Number(process.env.FUZZ_RUNS ?? 500);
const byStatus = new Map<number, number>();
const byEndpoint = new Map<string, Map<number, number>>();
let failed = false;

console.log(`fuzz campaign: seed ${seed}, ${runs} cases per endpoint and adapter (replay with FUZZ_SEED=${seed})`);
const started = performance.now();
for (const kind of ['msw', 'http'] as AdapterKind[]) {
  const target = await open(kind);
  try {
    for (const endpoint of fuzzedEndpoints) {
      const name = nameOf(endpoint);
      const counts = byEndpoint.get(name) ?? new Map<number, number>();
      byEndpoint.set(name, counts);
      let n = 0;
      const result = await fc.check(
        fc.asyncProperty(requestsOf(endpoint), async (request) => {
          if (n++ % 20 === 0) target.platform.reset();
          const status = await check(target, request);
          counts.set(status, (counts.get(status) ?? 0) + 1);
          byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        }),
        { seed, numRuns: runs, endOnFailure: true },
      );
      if (result.failed) {
        failed = true;
        console.error(`\n${kind} ${name}: ${fc.defaultReportMessage(result) ?? 'failed'}`);
      }
      process.stdout.write('.');
    }
  } finally {
    await target.close();
  }
}
const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
console.log(`\n\n${total} requests in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(
  `by status: ${[...byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, c]) => `${s}: ${c}`)
    .join(', ')}`,
);
console.log('by endpoint:');
for (const [name, counts] of byEndpoint)
  console.log(
    `  ${name.padEnd(70)} ${[...counts]
      .sort(([a], [b]) => a - b)
      .map(([s, c]) => `${s}:${c}`)
      .join(' ')}`,
  );
if (failed) {
  console.error('\na property was broken: see above');
  process.exit(1);
}
console.log('\nno property broken');
