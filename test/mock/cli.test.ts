/** The `platform-mock` CLI: starts, prints its URL and the demo credentials, serves, stops cleanly. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createPlatform } from '../../mock/index.js';
import * as e from '../../src/endpoints.js';
import { GetProductsResponse } from '../../src/schemas/products.js';
import { collect, exited, run, started, withCli } from './cli-process.js';
import { demoCredentials, demoIds, demoUsers, paths } from './harness.js';

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
    for (const flag of [
      '--environment',
      '--sso-audience',
      '--ticket-lifetime',
      '--token-lifetime',
      '--sync-processing-ms',
      '--me-shape',
      '--login-max-failures',
      '--login-freeze-seconds',
      '--max-sessions-per-account',
    ])
      expect(help.stdout, flag).toMatch(new RegExp(`${flag} .*default`));
    const bad = await collect(run(['--port', 'abc']));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid port');
  });
});

describe('platform-mock CLI: the platform options, the start-up lines, the log', () => {
  test('every platform option takes effect; the start-up lines show the environment and the audience', async () => {
    const args = ['--port', '0', '--environment', 'production', '--sso-audience', 'sso.example.test'];
    await withCli(
      [...args, '--ticket-lifetime', '5', '--token-lifetime', '7', '--sync-processing-ms', '0'],
      async (url, output) => {
        expect(output).toContain('environment:        production');
        expect(output).toContain('sso audience:       sso.example.test');
        for (const user of Object.values(demoUsers)) expect(output).toContain(`${user.email} / ${user.password}`);
        // Production spells endpoint 10's path its own way.
        const token = (await (
          await fetch(`${url}/__admin/tokens`, {
            method: 'POST',
            body: JSON.stringify({ scopes: ['/external/helpdesk/r'] }),
          })
        ).json()) as { access_token: string; expires_in: number };
        expect(token.expires_in).toBe(7);
        const headers = { authorization: `Bearer ${token.access_token}` };
        const query = `?id=${demoIds.helpdeskTemplates.invoice}`;
        const prod = await fetch(`${url}${e.pathOf(e.getHelpdeskMessageTemplate, 'production')}${query}`, { headers });
        const stage = await fetch(`${url}${e.pathOf(e.getHelpdeskMessageTemplate, 'stage')}${query}`, { headers });
        expect([prod.status, stage.status]).toEqual([200, 404]);
        await fetch(`${url}/__admin/tickets`, {
          method: 'POST',
          body: JSON.stringify({ account_id: demoUsers.anna.id, client_id: 'demo-site' }),
        });
        const state = (await (await fetch(`${url}/__admin/state`)).json()) as {
          tickets: { issued_at: string; expires_at: string }[];
        };
        const [issued] = state.tickets;
        expect(Date.parse(issued!.expires_at) - Date.parse(issued!.issued_at)).toBe(5000);
      },
    );
  });

  test('--seed empty prints no demo users, secrets or shop', async () => {
    await withCli(['--port', '0', '--seed', 'empty'], async (_, output) => {
      expect(output).toContain('seed:               empty');
      expect(output).not.toContain(demoCredentials.clientSecret);
      expect(output).not.toContain('demo');
    });
  });

  test('--log prints one line per request: method, path with secrets redacted, status, time, correlation id', async () => {
    const child = run(['--port', '0', '--log']);
    try {
      const { url } = await started(child);
      let out = '';
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
      });
      const answer = await fetch(`${url}${paths.products}?client_secret=hush&product_type=packages`);
      const id = answer.headers.get('x-correlation-id');
      await expect.poll(() => out).toContain(id);
      expect(out).toMatch(
        new RegExp(
          `^GET ${paths.products}\\?client_secret=\\[redacted\\]&product_type=packages 401 \\d+\\.\\dms ${id}$`,
          'm',
        ),
      );
      expect(out).not.toContain('hush');
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('--version prints the package version; bad platform options exit 2 naming the flag', async () => {
    const v = await collect(run(['--version']));
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    for (const [args, message] of [
      [['--environment', 'qa'], 'invalid --environment: qa'],
      [['--ticket-lifetime', '0'], 'invalid --ticket-lifetime'],
      [['--login-max-failures', '0'], 'invalid --login-max-failures'],
      [['--me-shape', 'camel'], 'invalid --me-shape: camel'],
      [['--login-freeze-seconds', '1.5'], 'invalid --login-freeze-seconds'],
      [['--max-sessions-per-account', 'x'], 'invalid --max-sessions-per-account'],
      [['--token-lifetime', 'x'], 'invalid --token-lifetime'],
      [['--sync-processing-ms', '60001'], 'invalid --sync-processing-ms'],
      [['--sso-audience', ''], 'invalid --sso-audience'],
      [['--quiet', '--log'], 'exclude each other'],
    ] as const) {
      const bad = await collect(run([...args]));
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toContain(message);
    }
  });

  test('a port in use: one line that says so and which option to change, exit 1, no usage', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    try {
      const { port } = blocker.address() as AddressInfo;
      const result = await collect(run(['--port', String(port)]));
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `platform-mock: port ${port} is in use: choose another with --port <n> (--port 0 picks a free one)`,
      );
    } finally {
      blocker.close();
    }
  });
});
