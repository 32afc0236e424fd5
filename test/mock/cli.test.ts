/** The `platform-mock` CLI: starts, prints its URL and the demo credentials, serves, stops cleanly. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createPlatform } from '../../mock/index.js';
import { DOCS_URL } from '../../mock/node/command-line.js';
import pkg from '../../package.json' with { type: 'json' };
import * as e from '../../src/endpoints.js';
import { GetProductsResponse } from '../../src/schemas/products.js';
import { until } from '../until.js';
import { CLI_TEST_TIMEOUT_MS, collect, run, started, stop, stopAll, withCli } from './cli-process.js';
import { docsPageHas } from './docs-links.js';
import { demoCredentials, demoIds, demoSite, demoUsers, paths } from './harness.js';

// A test that fails half-way leaves no server running.
afterEach(stopAll);

/** The admin API takes JSON bodies only. */
const JSON_TYPE = { 'content-type': 'application/json' };

describe('platform-mock CLI', () => {
  test('--port 0: prints the URL and demo credentials, serves the API and /__admin, exits 0 on SIGTERM', {
    timeout: CLI_TEST_TIMEOUT_MS,
  }, async () => {
    const child = run(['--port', '0']);
    try {
      const { url, output } = await started(child);
      expect(output).toContain(demoCredentials.clientId);
      expect(output).toContain(demoCredentials.clientSecret);
      // Each demo client's organisation id: the iss a client in another language signs SSO tokens with.
      expect(output).toMatch(
        new RegExp(`^  ${demoSite.organisationId} \\(Demo Media\\): demo-client, .*demo-site,`, 'm'),
      );
      expect(output).toContain(`  ${demoIds.organisations.complex} (Complex Media): complex-client`);
      // What each demo user is for: the docs in the repository, which the installed package lacks.
      expect(output).toContain(`what each can do: ${DOCS_URL}test-authors.md#demo-data`);
      expect(docsPageHas(`${DOCS_URL}test-authors.md#demo-data`)).toBe(true);
      expect(output).not.toMatch(/(?<!\/)docs\/[\w-]+\.md/);
      const token = (await (
        await fetch(`${url}/__admin/tokens`, {
          method: 'POST',
          headers: JSON_TYPE,
          body: JSON.stringify({ scopes: ['/external/product/r'] }),
        })
      ).json()) as { access_token: string };
      const res = await fetch(`${url}${paths.getProducts}?product_type=packages`, {
        headers: { authorization: `Bearer ${token.access_token}` },
      });
      expect(GetProductsResponse.parse(await res.json()).items.length).toBeGreaterThan(0);
      expect(await stop(child, 'SIGTERM')).toBe(0);
    } finally {
      await stop(child);
    }
  });

  test('--seed <file.json> starts from that document', {
    timeout: CLI_TEST_TIMEOUT_MS,
  }, async () => {
    const doc = createPlatform({ seed: 'empty' }).snapshot();
    const dir = mkdtempSync(join(tmpdir(), 'platform-mock-'));
    const file = join(dir, 'state.json');
    writeFileSync(file, JSON.stringify(doc));
    const child = run(['--port', '0', '--seed', file]);
    try {
      const { url } = await started(child);
      const state = (await (await fetch(`${url}/__admin/state`)).json()) as { products: unknown[] };
      expect(state.products).toEqual([]);
      expect(await stop(child, 'SIGINT')).toBe(0);
    } finally {
      await stop(child);
    }
  });

  test('--seed <file.json> that is not JSON: exit 2, naming the file, the line, the column and why, and none of its content', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'platform-mock-')), 'seed.json');
    writeFileSync(file, '{"clients":[{"client_id":"c",\n"client_secret":TOPSECRETxyz}]}');
    const { code, stdout, stderr } = await collect(run(['--port', '0', '--seed', file]));
    expect(code).toBe(2);
    expect(stderr).toBe(
      `platform-mock: cannot read seed ${file}: it is not JSON: line 2, column 17: a value was expected here; see platform-mock --help\n`,
    );
    expect(`${stdout}${stderr}`).not.toMatch(/TOPSECRET|client_secret/);
  });

  test('--help prints the usage and exits 0; a bad option exits 2 with one line naming its flag and pointing to --help', async () => {
    const help = await collect(run(['--help']));
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: platform-mock [options]');
    // One line: the whole help after it would push it off a terminal's screen.
    for (const [args, line] of [
      [['--port', 'abc'], 'invalid --port: abc (a whole number)'],
      [['--port', '-1'], 'invalid --port: -1 (a whole number of 0 or more)'],
      [['--bogus'], "Unknown option '--bogus'"],
      [['--sso-audience', '-x'], "Option '--sso-audience' argument is ambiguous. Did you forget"],
    ] as const) {
      const bad = await collect(run([...args]));
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toMatch(/^platform-mock: [^\n]*; see platform-mock --help\n$/);
      expect(bad.stderr).toContain(line);
    }
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
        // The audience in force is the state's too.
        const audience = (await (await fetch(`${url}/__admin/state`)).json()) as { sso_audience: string };
        expect(audience.sso_audience).toBe('sso.example.test');
        for (const user of Object.values(demoUsers)) expect(output).toContain(`${user.email} / ${user.password}`);
        // Production spells endpoint 10's path its own way.
        const token = (await (
          await fetch(`${url}/__admin/tokens`, {
            method: 'POST',
            headers: JSON_TYPE,
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
          headers: JSON_TYPE,
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

  test('--log prints one line per request: method, path with secrets redacted, status, time, correlation id, and why it was refused', {
    timeout: CLI_TEST_TIMEOUT_MS,
  }, async () => {
    await withCli(['--port', '0', '--log'], async (url, _, child) => {
      let out = '';
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
      });
      const answer = await fetch(`${url}${paths.getProducts}?client_secret=hush&product_type=packages`);
      const id = answer.headers.get('x-correlation-id');
      await until(() => expect(out).toContain(id), CLI_TEST_TIMEOUT_MS / 2);
      expect(out).toMatch(
        new RegExp(
          `^GET ${paths.getProducts}\\?client_secret=\\[redacted\\]&product_type=packages 401 \\d+\\.\\dms ${id} refused: token: Missing bearer token: send Authorization: Bearer <token>$`,
          'm',
        ),
      );
      expect(out).not.toContain('hush');
    });
  });

  test('--log: a JSON key with a line break and escape sequences, refused unknown_parameter, is one printable line', {
    timeout: CLI_TEST_TIMEOUT_MS,
  }, async () => {
    await withCli(['--port', '0', '--log'], async (url, _, child) => {
      let out = '';
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
      });
      const key = 'x\nGET /forged/line 200 0.1ms\u001b[31mRED\u001b[0m\u009b2J\u0007\u2028\u202e';
      const answer = await fetch(`${url}${paths.accessToken}`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({
          grant_type: 'none',
          client_id: demoCredentials.clientId,
          client_secret: demoCredentials.clientSecret,
          [key]: 1,
        }),
      });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { code: string }).code).toBe('unknown_parameter');
      const id = answer.headers.get('x-correlation-id');
      await until(() => expect(out).toContain(id), CLI_TEST_TIMEOUT_MS / 2);
      const lines = out.split('\n').filter((l) => l.includes(paths.accessToken) || l.includes('/forged/line'));
      expect(lines).toEqual([
        expect.stringMatching(
          new RegExp(
            `^POST ${paths.accessToken} 400 \\d+\\.\\dms ${id} refused: unknown_parameter: x\\?GET /forged/line 200 0\\.1ms\\?\\[31mRED\\?\\[0m\\?2J\\?\\?\\?: `,
          ),
        ),
      ]);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is looked for
      expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u202e]/);
      expect(out).not.toMatch(/^GET \/forged/m);
      expect(out).not.toContain(demoCredentials.clientSecret);
    });
  });

  test('in a terminal a line per request is the default; --quiet alone prints none', {
    timeout: CLI_TEST_TIMEOUT_MS,
  }, async () => {
    /** Everything the CLI prints until it exits, with one request made while it runs. */
    const printed = async (args: string[]) => {
      const child = run(['--port', '0', ...args], { terminal: true });
      let out = '';
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
      });
      const { url } = await started(child);
      const answer = await fetch(`${url}${paths.getProducts}?product_type=packages`);
      expect(answer.status).toBe(401);
      // Standard output is a pipe, written synchronously: every line is in before the exit, and
      // `stop` answers once the pipe is read to its end.
      expect(await stop(child)).toBe(0);
      return { out, id: answer.headers.get('x-correlation-id')! };
    };
    // Both at once: each start-up is most of the test's time.
    const [loud, quiet] = await Promise.all([printed([]), printed(['--quiet'])]);
    expect(loud.out).toMatch(
      new RegExp(`^GET ${paths.getProducts}\\?product_type=packages 401 .*${loud.id} refused: token: .*$`, 'm'),
    );
    expect(quiet.out).toContain('listening on');
    expect(quiet.out).not.toContain(quiet.id);
    expect(quiet.out).not.toMatch(/^GET /m);
  });

  test('--no-admin: the start-up lines point to no /__admin route (GET /__admin/demo answers 404 then); without it they do', async () => {
    await withCli(['--port', '0', '--no-admin'], async (url, output) => {
      expect(output).toContain('demo client_id:');
      expect(output).not.toContain('/__admin');
      expect((await fetch(`${url}/__admin/demo`)).status).toBe(404);
    });
    await withCli(['--port', '0'], async (url, output) => {
      expect(output).toContain(`GET ${url}/__admin/demo`);
    });
  });

  test('--now starts the platform clock there, flowing on; the start-up lines show it', async () => {
    const start = '2030-01-02T03:04:05Z';
    await withCli(['--port', '0', '--now', start], async (url, output) => {
      expect(output).toContain('clock started at:   2030-01-02T03:04:05.000Z (--now)');
      const clock = (await (await fetch(`${url}/__admin/clock`)).json()) as { now: string; frozen: boolean };
      const since = Date.parse(clock.now) - Date.parse(start);
      expect(since).toBeGreaterThanOrEqual(0);
      expect(since).toBeLessThan(60_000);
      expect(clock.frozen).toBe(false);
    });
  });

  test('--journal-limit <n>: the journal keeps the last n requests', async () => {
    await withCli(['--port', '0', '--journal-limit', '2'], async (url) => {
      for (const n of ['1', '2', '3']) await fetch(`${url}${paths.getProducts}?n=${n}`);
      const { items } = (await (await fetch(`${url}/__admin/requests`)).json()) as {
        items: { query: Record<string, string> }[];
      };
      expect(items.map((i) => i.query.n)).toEqual(['2', '3']);
    });
  });

  test('an unexpected exception: answered 500, and one line on standard error naming its class, not its message', {
    timeout: CLI_TEST_TIMEOUT_MS,
  }, async () => {
    // Makes the platform's own reading of this Content-Type throw, as a bug would.
    const bug = `const lower = String.prototype.toLowerCase;
      String.prototype.toLowerCase = function () {
        const s = String(this);
        if (s === 'application/x-bug') throw new TypeError('quoting the request: ' + [...'hsuh'].reverse().join(''));
        return lower.call(s);
      };`;
    const withBug = run(['--port', '0'], { preload: bug });
    let err = '';
    withBug.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
    });
    try {
      const { url } = await started(withBug);
      const answer = await fetch(`${url}/openapi.json`, { headers: { 'content-type': 'application/x-bug' } });
      expect(answer.status).toBe(500);
      expect(((await answer.json()) as { code: string }).code).toBe('internal_server_error');
      await until(
        () => expect(err).toContain('platform-mock: an unexpected TypeError was answered 500 internal_server_error'),
        CLI_TEST_TIMEOUT_MS / 2,
      );
      expect(err).not.toContain('hush');
    } finally {
      expect(await stop(withBug)).toBe(0);
    }
  });

  test('--version prints the version of package.json', async () => {
    const v = await collect(run(['--version']));
    expect(v.code).toBe(0);
    expect(v.stdout).toBe(`${pkg.version}\n`);
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
