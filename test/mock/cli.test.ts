/** The `platform-mock` CLI: starts, prints its URL and the demo credentials, serves, stops cleanly. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createPlatform } from '../../mock/index.js';
import { GetProductsResponse } from '../../src/schemas/products.js';
import { demoCredentials, paths } from './harness.js';

const ROOT = new URL('../../', import.meta.url);

/**
 * Runs the CLI under tsx. Not through `npx`: npm exec answers a signal by dying of it (exit code
 * null) whatever the CLI's own exit code, which is what this test checks.
 */
function run(args: string[]): ChildProcess {
  const tsx = new URL('node_modules/.bin/tsx', ROOT);
  return spawn(tsx.pathname, ['mock/node/cli.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Waits for the URL line; answers the URL and everything printed so far. */
function started(child: ChildProcess): Promise<{ url: string; output: string }> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m && output.includes('client_secret')) resolve({ url: m[1]!, output });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

async function collect(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await exited(child);
  return { code, stdout, stderr };
}

describe('platform-mock CLI', () => {
  test('--port 0: prints the URL and demo credentials, serves the API and /__admin, exits 0 on SIGTERM', async () => {
    const child = run(['--port', '0']);
    try {
      const { url, output } = await started(child);
      expect(output).toContain(demoCredentials.clientId);
      expect(output).toContain(demoCredentials.clientSecret);
      const token = (await (
        await fetch(`${url}/__admin/tokens`, {
          method: 'POST',
          body: JSON.stringify({ scopes: ['/external/product/r'] }),
        })
      ).json()) as { access_token: string };
      const res = await fetch(`${url}${paths.products}?product_type=packages`, {
        headers: { authorization: `Bearer ${token.access_token}` },
      });
      expect(GetProductsResponse.parse(await res.json()).items.length).toBeGreaterThan(0);
      const exit = exited(child);
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  test('--seed <file.json> starts from that document', async () => {
    const doc = createPlatform({ seed: 'empty' }).snapshot();
    const dir = mkdtempSync(join(tmpdir(), 'platform-mock-'));
    const file = join(dir, 'state.json');
    writeFileSync(file, JSON.stringify(doc));
    const child = run(['--port', '0', '--seed', file]);
    try {
      const { url } = await started(child);
      const state = (await (await fetch(`${url}/__admin/state`)).json()) as { products: unknown[] };
      expect(state.products).toEqual([]);
      const exit = exited(child);
      child.kill('SIGINT');
      expect(await exit).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  test('--help prints the usage; a bad option exits 2', async () => {
    const help = await collect(run(['--help']));
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--seed');
    const bad = await collect(run(['--port', 'abc']));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid port');
  });
});
