/** `npm run bulk-sync` (examples/bulk-sync.ts) against the standalone platform: the bar, then a summary. */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createPlatform, demoIds } from '../mock/index.js';
import { type RunningServer, startServer } from '../mock/node/index.js';
import { bundled } from './bundle.js';
import { until } from './until.js';

/**
 * How long a test that starts the script may take: a run takes about a second on an idle machine,
 * and the margin holds at ten times that and more.
 */
const PROCESS_MS = 60_000;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: 'demo' });
});
afterAll(() => server.close());

/** The script, bundled once per test process from the current sources: each start takes a third of tsx's time. */
const SCRIPT = bundled('examples/bulk-sync.ts');

/**
 * Starts the script against `url`; the bar goes to stderr (progress), the summary to stdout. In a
 * node process of its own, not through the `tsx` wrapper: the wrapper relays a signal to the
 * script and kills it when the script has not said within 30 ms that it got it, which on a busy
 * machine ended the run before its summary. Done once the output is read to its end (`close`:
 * `exit` can come before the last of it).
 */
function start(url: string, args: string[]) {
  const child: ChildProcess = spawn(process.execPath, [SCRIPT, '--url', url, ...args], {
    cwd: new URL('..', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done, stderr: () => stderr };
}

/** Runs the script to its end against the shared server. */
function run(args: string[]) {
  return start(server.url, args).done;
}

const syncsOf = (platform: RunningServer['platform']) =>
  platform.requests.list().filter((r) => r.path.endsWith('/sync_customer_subscriptions'));

test('syncs every customer of the external system in sequence, shows progress and a summary', {
  timeout: PROCESS_MS,
}, async () => {
  const { code, stdout, stderr } = await run([]);
  expect(stderr).toMatch(/Syncing \|.*\| 5\/5 customers/);
  expect(stdout).toMatch(/3 synced, 2 failed, 0 unknown, 0 not sent, in [\d.]+ s/);
  expect(stdout).toContain('C1010: 404 not_found');
  expect(code).toBe(1);
  expect(syncsOf(server.platform).map((r) => r.status)).not.toContain(409);
});

test('--stop-on-error stops at the first failure; given numbers only', { timeout: PROCESS_MS }, async () => {
  server.platform.reset();
  const { stdout } = await run(['--stop-on-error', 'C1001', 'C1010', 'C1007']);
  expect(stdout).toMatch(/1 synced, 1 failed, 0 unknown, 1 not sent/);
});

test('Ctrl-C stops between two customers: the one under way is finished and reported, no other is sent', {
  timeout: PROCESS_MS,
}, async () => {
  const slow = await startServer({ port: 0, platform: createPlatform({ seed: 'demo', syncProcessingMs: 400 }) });
  // The platform's processing time runs on fake timers: the first sync stays under way until the
  // script has said it heard the signal, however slowly the machine runs either process.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const script = start(slow.url, ['C1001', 'C1007', 'C1005']);
    const waiting = PROCESS_MS - 10_000;
    await until(
      () => expect(slow.platform.subscriptionSystems.syncInFlight(demoIds.organisations.demo)).toBe(true),
      waiting,
    );
    script.child.kill('SIGINT');
    await until(() => expect(script.stderr()).toContain('Stopping after the customer under way'), waiting);
    // Now the sync under way ends, and so does any the script still sends: a run that did not stop ends too.
    await until(async () => {
      await vi.advanceTimersByTimeAsync(400);
      expect(script.child.exitCode).not.toBeNull();
    }, waiting);
    const { code, stdout } = await script.done;
    expect(stdout).toMatch(/1 synced, 0 failed, 0 unknown, 2 not sent/);
    expect(stdout).toContain('Stopped: the rest were not sent.');
    expect(code).toBe(1);
    // The platform applied the one call that was under way, and saw no other.
    expect(syncsOf(slow.platform).map((r) => [JSON.parse(r.body ?? '{}').customer_number, r.status])).toEqual([
      ['C1001', 200],
    ]);
    expect(
      slow.platform
        .snapshot()
        .user_products.some((u) => u.account_id === demoIds.accounts.anna && u.subscription_number === 'PL-1001-1'),
    ).toBe(true);
  } finally {
    vi.useRealTimers();
    await slow.close();
  }
});
