/** `npm run bulk-sync` (examples/bulk-sync.ts) against the standalone platform: the bar, then a summary. */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningServer, startServer } from '../mock/node/index.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: 'demo' });
});
afterAll(() => server.close());

/** Runs the script; the bar goes to stderr (progress), the summary to stdout. */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const tsx = new URL('../node_modules/.bin/tsx', import.meta.url).pathname;
  const child = spawn(tsx, ['examples/bulk-sync.ts', '--url', server.url, ...args], {
    cwd: new URL('..', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

test('syncs every customer of the external system in sequence, shows progress and a summary', async () => {
  const { code, stdout, stderr } = await run([]);
  expect(stderr).toMatch(/Syncing \|.*\| 5\/5 customers/);
  expect(stdout).toMatch(/3 synced, 2 failed, 0 not sent, in [\d.]+ s/);
  expect(stdout).toContain('C1010: 404 not_found');
  expect(code).toBe(1);
  const syncs = server.platform.requests.list().filter((r) => r.path.endsWith('/sync_customer_subscriptions'));
  expect(syncs.map((r) => r.status)).not.toContain(409);
});

test('--stop-on-error stops at the first failure; given numbers only', async () => {
  server.platform.reset();
  const { stdout } = await run(['--stop-on-error', 'C1001', 'C1010', 'C1007']);
  expect(stdout).toMatch(/1 synced, 1 failed, 1 not sent/);
});
