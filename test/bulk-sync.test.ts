/** `npm run bulk-sync` (examples/bulk-sync.ts) against the standalone platform: the bar, then a summary. */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createPlatform, demoIds } from '../mock/index.js';
import { type RunningServer, startServer } from '../mock/node/index.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: 'demo' });
});
afterAll(() => server.close());

/** Starts the script against `url`; the bar goes to stderr (progress), the summary to stdout. */
function start(url: string, args: string[]) {
  const tsx = new URL('../node_modules/.bin/tsx', import.meta.url).pathname;
  const child: ChildProcess = spawn(tsx, ['examples/bulk-sync.ts', '--url', url, ...args], {
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
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

/** Runs the script to its end against the shared server. */
function run(args: string[]) {
  return start(server.url, args).done;
}

const syncsOf = (platform: RunningServer['platform']) =>
  platform.requests.list().filter((r) => r.path.endsWith('/sync_customer_subscriptions'));

test('syncs every customer of the external system in sequence, shows progress and a summary', async () => {
  const { code, stdout, stderr } = await run([]);
  expect(stderr).toMatch(/Syncing \|.*\| 5\/5 customers/);
  expect(stdout).toMatch(/3 synced, 2 failed, 0 unknown, 0 not sent, in [\d.]+ s/);
  expect(stdout).toContain('C1010: 404 not_found');
  expect(code).toBe(1);
  expect(syncsOf(server.platform).map((r) => r.status)).not.toContain(409);
});

test('--stop-on-error stops at the first failure; given numbers only', async () => {
  server.platform.reset();
  const { stdout } = await run(['--stop-on-error', 'C1001', 'C1010', 'C1007']);
  expect(stdout).toMatch(/1 synced, 1 failed, 0 unknown, 1 not sent/);
});

test('Ctrl-C stops between two customers: the one under way is finished and reported, no other is sent', async () => {
  // Syncs of 400 ms, so that the signal surely comes while the first is under way.
  const slow = await startServer({ port: 0, platform: createPlatform({ seed: 'demo', syncProcessingMs: 400 }) });
  try {
    const { child, done } = start(slow.url, ['C1001', 'C1007', 'C1005']);
    await vi.waitFor(
      () => expect(slow.platform.subscriptionSystems.syncInFlight(demoIds.organisations.demo)).toBe(true),
      {
        timeout: 15_000,
        interval: 5,
      },
    );
    child.kill('SIGINT');
    const { code, stdout } = await done;
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
    await slow.close();
  }
});
