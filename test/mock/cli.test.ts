/** The `platform-mock` CLI: starts, prints its URL and the demo credentials, serves, stops cleanly. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createPlatform } from '../../mock/index.js';
import { GetProductsResponse } from '../../src/schemas/products.js';
import { collect, exited, run, started } from './cli-process.js';
import { demoCredentials, paths } from './harness.js';

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
