/**
 * The README's parallel-workers example in Python (`examples/python/parallel_workers.py`), run
 * against a server of its own: several threads, each in its namespace, each resetting and writing
 * without seeing the others. Skipped with a message without python3, except in CI (which must have it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningServer, startServer } from '../../mock/node/index.js';

const SCRIPT = fileURLToPath(new URL('parallel_workers.py', import.meta.url));
const WORKERS = 4;

/** Whether python3 runs here. */
const hasPython = spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0;

/** Runs the script to its end (asynchronously: the server answers it from this process). */
function runScript(url: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [SCRIPT, url, String(WORKERS)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0 });
});
afterAll(() => server.close());

if (hasPython) {
  // A start of python3 and a few dozen requests: under a second idle, within the bound at ten times.
  test('parallel workers, each in its namespace, reset and write without seeing the others', {
    timeout: 60_000,
  }, async () => {
    const { code, stdout, stderr } = await runScript(server.url);
    expect(code, stderr).toBe(0);
    for (let n = 0; n < WORKERS; n++)
      expect(stdout).toContain(`worker-${n}: price ${100 + n} written and read back, untouched by the others`);
    expect(server.namespace('worker-0')).toBeDefined();
    // The root platform is untouched by them all.
    expect(server.platform.snapshot().access_tokens).toEqual([]);
  });
} else if (process.env.CI) {
  test('python3 is installed for the Python example', () => {
    expect.fail('no python3: run `apt-get update && apt-get install -y python3`');
  });
} else {
  console.warn(
    '\n[examples/python/parallel-workers.test.ts] SKIPPED: no python3. Install it to run the Python example.\n',
  );
}
