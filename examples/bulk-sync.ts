/**
 * `npm run bulk-sync`: syncs the subscriptions of many customers from the external subscription
 * system (endpoint 19), one after another as the spec requires, with a progress bar and a summary.
 *
 *   npx tsx examples/bulk-sync.ts [--url http://127.0.0.1:4010] [--stop-on-error] [customer numbers...]
 *
 * Against the standalone reference platform (`npx platform-mock`), with the demo client's
 * credentials unless CLIENT_ID and CLIENT_SECRET are set. Without customer numbers it syncs every
 * customer of the demo organisation's external system.
 *
 * Ctrl-C stops between two customers: the customer being synced is finished and reported (the
 * platform would apply it anyway), and no other is sent. A second Ctrl-C quits at once.
 */
import { parseArgs } from 'node:util';
import { Presets, SingleBar } from 'cli-progress';
import { demoCredentials, demoIds } from '../mock/index.js';
import { APIError, PlatformClient } from '../src/index.js';

const { values, positionals } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:4010' },
    'stop-on-error': { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const url = values.url ?? 'http://127.0.0.1:4010';

const client = new PlatformClient({
  environment: 'stage',
  hosts: { api: url, auth: url },
  auth: {
    clientId: process.env.CLIENT_ID ?? demoCredentials.clientId,
    clientSecret: process.env.CLIENT_SECRET ?? demoCredentials.clientSecret,
    scopes: ['/external/subscription_system/w'],
  },
});

/** The customers to sync: the ones given, or every customer of the demo organisation's external system. */
async function customerNumbers(): Promise<string[]> {
  if (positionals.length > 0) return positionals;
  // A test tool of the reference platform: a real run would read its list from the external system.
  const answer = await fetch(`${url}/__admin/subscription-systems/${demoIds.organisations.demo}`);
  if (!answer.ok) throw new Error(`cannot read the external system's customers (${answer.status})`);
  const system = (await answer.json()) as { customers: { customer_number: string }[] };
  return system.customers.map((c) => c.customer_number);
}

const numbers = await customerNumbers();
const controller = new AbortController();
// Once: the run stops after the call under way; a second Ctrl-C gets Node's default (quit now).
process.once('SIGINT', () => {
  controller.abort();
  // Said at once: the call under way may take a while, and the user should know the key was heard.
  process.stderr.write('\nStopping after the customer under way (Ctrl-C again quits now).\n');
});

const bar = new SingleBar(
  {
    format: 'Syncing |{bar}| {value}/{total} customers | {current}',
    hideCursor: true,
    // A bar in a terminal; one line per update where the output is a pipe or a file.
    noTTYOutput: !process.stdout.isTTY,
    notTTYSchedule: 1000,
  },
  Presets.shades_classic,
);
bar.start(numbers.length, 0, { current: '' });
const started = performance.now();
const run = await client.subscriptionSystem.syncInSequence(numbers, {
  signal: controller.signal,
  stopOnError: values['stop-on-error'] === true,
  onProgress: ({ done, current }) => bar.update(done, { current }),
});
bar.stop();

const synced = run.results.filter((r) => r.status === 'synced');
const failed = run.results.filter((r) => r.status === 'failed');
const unknown = run.results.filter((r) => r.status === 'unknown');
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `\n${synced.length} synced, ${failed.length} failed, ${unknown.length} unknown, ${run.notSent.length} not sent, in ${seconds} s`,
);
for (const f of failed) {
  const error = f.error;
  const why = error instanceof APIError ? `${error.status} ${error.code}: ${error.message}` : String(error);
  console.log(`  ${f.customer_number}: ${why}`);
}
for (const u of unknown)
  console.log(`  ${u.customer_number}: no answer (${u.error.message}); sync it again to be sure`);
if (run.aborted) console.log('Stopped: the rest were not sent.');
process.exitCode = synced.length < numbers.length ? 1 : 0;
