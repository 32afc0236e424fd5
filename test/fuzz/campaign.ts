/**
 * `npm run fuzz`: a long fuzz campaign over every endpoint of the table, through both adapters;
 * SSO operations with validly signed request tokens and each claim broken in turn. Ends with a
 * summary: requests, rate and CPU time per request, counts by status, and by endpoint the outcomes
 * (for the SSO service, the answer's `err` or `sts`); exits 1 if a property was broken (each
 * printed with its seed and the request as it is found).
 *
 * Options (or the environment variables in brackets):
 * - `--runs <n>` (`FUZZ_RUNS`): cases per endpoint and adapter, 500 by default; or `--requests <n>`
 *   (`FUZZ_REQUESTS`): a total, shared out evenly.
 * - `--compare-every <n>` (`FUZZ_COMPARE_EVERY`): the state is compared before and after one
 *   request in `n`; 1 by default (every one). Two state documents are about a fifth of a request's
 *   cost.
 * - `--parallel`: each adapter in a process of its own, the summary merged (two cores, two adapters).
 * - `--seed <n>` (`FUZZ_SEED`): the seed (default: the time), printed to replay a run.
 *
 * `npm run fuzz:million` is `--requests 1000000 --compare-every 10 --parallel`.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { nameOf } from '../../src/endpoints.js';
import { fuzzedEndpoints, requestsOf } from './requests.js';
import { type AdapterKind, check, open } from './run.js';

const ADAPTER_KINDS: readonly AdapterKind[] = ['msw', 'http'];
/** A fresh state every this many cases, so records do not pile up over a long campaign. */
const RESET_EVERY = 20;
/** A progress line every this many requests. */
const PROGRESS_EVERY = 50_000;

/** What a campaign (or one adapter's share of it) counted. */
interface Tally {
  sent: number;
  cpuMs: number;
  failures: number;
  byStatus: [number, number][];
  byEndpoint: [string, [string, number][]][];
}

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: process.env.FUZZ_RUNS },
    requests: { type: 'string', default: process.env.FUZZ_REQUESTS },
    'compare-every': { type: 'string', default: process.env.FUZZ_COMPARE_EVERY ?? '1' },
    seed: { type: 'string', default: process.env.FUZZ_SEED ?? String(Date.now() % 2 ** 31) },
    parallel: { type: 'boolean', default: false },
    /** Set for a child of `--parallel`: its one adapter. */
    adapter: { type: 'string' },
  },
});
const seed = Number(options.seed);
const kinds = options.adapter ? [options.adapter as AdapterKind] : ADAPTER_KINDS;
const runs =
  options.requests === undefined
    ? Number(options.runs ?? 500)
    : Math.ceil(Number(options.requests) / (fuzzedEndpoints.length * ADAPTER_KINDS.length));
const compareEvery = Math.max(1, Number(options['compare-every']));

/** Runs the campaign through `adapters` in this process. */
async function campaign(adapters: readonly AdapterKind[]): Promise<Tally> {
  const byStatus = new Map<number, number>();
  const byEndpoint = new Map<string, Map<string, number>>();
  let sent = 0;
  let failures = 0;
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  for (const kind of adapters) {
    const target = await open(kind);
    try {
      for (const endpoint of fuzzedEndpoints) {
        const name = nameOf(endpoint);
        const counts = byEndpoint.get(name) ?? new Map<string, number>();
        byEndpoint.set(name, counts);
        let n = 0;
        const result = await fc.check(
          fc.asyncProperty(requestsOf(endpoint), async (request) => {
            if (n++ % RESET_EVERY === 0) target.platform.reset();
            const { status, outcome } = await check(target, request, sent % compareEvery === 0);
            counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
            byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
            if (++sent % PROGRESS_EVERY === 0)
              console.log(
                `  ${kind}: ${sent} requests, ${Math.round(sent / ((performance.now() - started) / 1000))}/s (${name})`,
              );
          }),
          { seed, numRuns: runs, endOnFailure: true },
        );
        if (result.failed) {
          failures++;
          console.error(`\n${kind} ${name}: ${fc.defaultReportMessage(result) ?? 'failed'}`);
        }
      }
    } finally {
      await target.close();
    }
  }
  const cpu = process.cpuUsage(cpuAtStart);
  return {
    sent,
    cpuMs: (cpu.user + cpu.system) / 1000,
    failures,
    byStatus: [...byStatus],
    byEndpoint: [...byEndpoint].map(([name, counts]) => [name, [...counts]]),
  };
}

/** Runs each adapter's share in a child process of its own; answers their tallies. */
function inParallel(): Promise<Tally[]> {
  const script = fileURLToPath(import.meta.url);
  const args = ['--seed', String(seed), '--runs', String(runs), '--compare-every', String(compareEvery)];
  return Promise.all(
    ADAPTER_KINDS.map(
      (kind) =>
        new Promise<Tally>((resolve, reject) => {
          const child = fork(script, [...args, '--adapter', kind], { execArgv: process.execArgv });
          let tally: Tally | undefined;
          child.on('message', (message) => {
            tally = message as Tally;
          });
          child.on('error', reject);
          child.on('exit', (code) =>
            tally ? resolve(tally) : reject(new Error(`the ${kind} campaign exited ${code}`)),
          );
        }),
    ),
  );
}

function merged(tallies: readonly Tally[]): Tally {
  const byStatus = new Map<number, number>();
  const byEndpoint = new Map<string, Map<string, number>>();
  for (const t of tallies) {
    for (const [status, count] of t.byStatus) byStatus.set(status, (byStatus.get(status) ?? 0) + count);
    for (const [name, counts] of t.byEndpoint) {
      const into = byEndpoint.get(name) ?? new Map<string, number>();
      byEndpoint.set(name, into);
      for (const [outcome, count] of counts) into.set(outcome, (into.get(outcome) ?? 0) + count);
    }
  }
  return {
    sent: tallies.reduce((a, t) => a + t.sent, 0),
    cpuMs: tallies.reduce((a, t) => a + t.cpuMs, 0),
    failures: tallies.reduce((a, t) => a + t.failures, 0),
    byStatus: [...byStatus],
    byEndpoint: [...byEndpoint].map(([name, counts]) => [name, [...counts]]),
  };
}

const sortedCounts = <K extends string | number>(counts: readonly [K, number][]) =>
  [...counts]
    .sort(([a], [b]) => String(a).localeCompare(String(b), 'en', { numeric: true }))
    .map(([k, c]) => `${k}: ${c}`)
    .join(', ');

/** Prints the summary; answers the exit code. */
function summary(t: Tally, seconds: number): number {
  // CPU time says what an idle core does, whatever else the machine runs meanwhile.
  console.log(
    `\n${t.sent} requests in ${seconds.toFixed(1)} s (${Math.round(t.sent / seconds)}/s); ` +
      `${(t.cpuMs / t.sent).toFixed(2)} ms of CPU each (${Math.round((t.sent * 1000) / t.cpuMs)}/s on one idle core)`,
  );
  console.log(`by status: ${sortedCounts(t.byStatus)}`);
  console.log("by endpoint (statuses, and for the SSO service the answer's err or sts):");
  for (const [name, counts] of t.byEndpoint) console.log(`  ${name}\n      ${sortedCounts(counts)}`);
  if (t.failures > 0) {
    console.error(`\n${t.failures} properties broken (seed ${seed}): see above`);
    return 1;
  }
  console.log(`\nno property broken (seed ${seed})`);
  return 0;
}

if (options.adapter) {
  const tally = await campaign(kinds);
  process.send?.(tally);
} else {
  console.log(
    `fuzz campaign: seed ${seed}, ${runs} cases per endpoint and adapter ` +
      `(${runs * fuzzedEndpoints.length * ADAPTER_KINDS.length} requests${options.parallel ? ', adapters in parallel' : ''}), ` +
      `state compared on ${compareEvery === 1 ? 'every request' : `one request in ${compareEvery}`} (replay with --seed ${seed})`,
  );
  const started = performance.now();
  const tally = options.parallel ? merged(await inParallel()) : await campaign(kinds);
  process.exitCode = summary(tally, (performance.now() - started) / 1000);
}
