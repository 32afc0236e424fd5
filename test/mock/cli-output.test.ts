/**
 * What the `platform-mock` CLI prints of what others sent: a failure is one line, and a hostile host
 * cannot put terminal escape sequences or line breaks into it; a request's refusal in the log is
 * redacted as the journal redacts it.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RequestLogLine, startServer } from '../../mock/node/server.js';
import { demoSite } from '../../mock/seeds/demo.js';
import { bundled } from '../bundle.js';
import { until } from '../until.js';
import { CLI_TEST_TIMEOUT_MS, collect, run, stopAll } from './cli-process.js';

/** The CLI as it is published, bundled from the current sources. */
const CLI = bundled('mock/node/cli.ts');

/** What the hostile host answers every request: a 400 whose message rewrites the screen and adds a line. */
const HOSTILE = { code: 'invalid_request', message: 'bad\u001b[2J\u001b[31m red\nplatform-mock: all good\u0007' };

let hostile: Server;
let url = '';
beforeAll(async () => {
  hostile = createServer((_, res) => {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify(HOSTILE));
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await stopAll();
  await new Promise((resolve) => hostile.close(resolve));
});

test(
  "capture's failure is one printable line, whatever the host's message holds: no escape sequence, no line break",
  async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'capture-hostile-')), 'catalogue.json');
    const args = [
      'capture',
      '--api',
      url,
      '--auth',
      url,
      '--client-id',
      'c',
      '--organisation',
      '0a0000000000000000000001',
    ];
    const { code, stderr } = await collect(run([...args, '--out', out], { env: { PLATFORM_CLIENT_SECRET: 's' } }));
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((l) => l.startsWith('platform-mock:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('bad?[2J?[31m red?platform-mock: all good?');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is looked for
    expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
  },
  CLI_TEST_TIMEOUT_MS,
);

test("the request log's refusal is redacted as the journal's: an SSO token's credential-shaped aud is not printed", async () => {
  const lines: RequestLogLine[] = [];
  const server = await startServer({ port: 0, maxNamespaces: 0, onRequest: (line) => lines.push(line) });
  try {
    const aud = 'Zq9xR3vT7yWb2LmN8pKd4HsJ6fGa1CeU0oIiYtXqVw_';
    const now = Math.floor(Date.now() / 1000);
    const t = await new SignJWT({
      cid: demoSite.clientId,
      ipa: '203.0.113.7',
      uas: 'test',
      apn: 'a',
      apv: '1',
      osn: 'o',
      osv: '1',
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 10)
      .setIssuer(demoSite.organisationId)
      .setAudience(aud)
      .sign(new TextEncoder().encode(demoSite.clientSecret));
    await fetch(`${server.url}/createsession`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ t }),
    });
    const journalled = server.platform.requests.list().at(-1)?.refusal;
    const logged = lines.find((l) => l.path === '/createsession')?.refusal;
    expect(journalled?.check).toBe('aud');
    expect(journalled?.detail).not.toContain(aud);
    expect(logged).toEqual({ check: 'aud', detail: 'aud is "[redacted]", expected "sso.platform.test"' });
  } finally {
    await server.close();
  }
});

test.each([
  ["an unknown parameter's name of 500,000 characters", 'k'.repeat(500_000)],
  ['a shorter one that redaction makes longer than 1,024', `x${' token=1'.repeat(60)}`],
  ['one whose cut falls inside a secret redacted', `${'k'.repeat(1009)} password=TOPSECRET ${'z'.repeat(600)}`],
])("the request log's refusal is cut as the journal's, at 1,024 characters: %s", async (_, name) => {
  const lines: RequestLogLine[] = [];
  const server = await startServer({ port: 0, maxNamespaces: 0, onRequest: (line) => lines.push(line) });
  try {
    const answer = await fetch(`${server.url}/api/authorization/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'none', client_id: 'c', client_secret: 's', [name]: 1 }),
    });
    expect(answer.status).toBe(400);
    const logged = lines.at(-1)?.refusal;
    const journalled = server.platform.requests.list().at(-1)?.refusal;
    expect(logged?.detail).toMatch(/^[\s\S]{1024}…\[truncated by the journal: 1024 of \d+ characters kept\]$/);
    expect(logged).toEqual(journalled);
  } finally {
    await server.close();
  }
});

test("the request log's refusal in a namespace names the path as the log shows it: an SSO session id is not printed", async () => {
  const lines: RequestLogLine[] = [];
  const server = await startServer({ port: 0, onRequest: (line) => lines.push(line) });
  try {
    const namespaces = async () => (await fetch(`${server.url}/__admin/namespaces`)).text();
    const before = await namespaces();
    for (const target of [
      '/_ns/a/__admin/sso/sessions/MK51',
      '/__admin/sso/sessions/MK52',
      '/_ns/a/nope/client_secret=MK53',
      '/_ns/a/nope/x?client_secret=MK54',
    ]) {
      const answer = await fetch(`${server.url}${target}`, { method: 'PUT' });
      await answer.arrayBuffer();
      expect([404, 405]).toContain(answer.status);
    }
    const puts = () => lines.filter((l) => l.method === 'PUT');
    await until(() => expect(puts()).toHaveLength(4));
    expect(puts().map((l) => [l.path, l.status, l.refusal])).toEqual([
      [
        '/_ns/a/__admin/sso/sessions/[redacted]',
        405,
        {
          check: 'method_not_allowed',
          detail: 'Method PUT is not allowed on /__admin/sso/sessions/[redacted]',
        },
      ],
      [
        '/__admin/sso/sessions/[redacted]',
        405,
        {
          check: 'method_not_allowed',
          detail: 'Method PUT is not allowed on /__admin/sso/sessions/[redacted]',
        },
      ],
      [
        '/_ns/a/nope/client_secret=[redacted]',
        404,
        { check: 'not_found', detail: 'No route for PUT /nope/client_secret=[redacted]' },
      ],
      ['/_ns/a/nope/x?client_secret=[redacted]', 404, { check: 'not_found', detail: 'No route for PUT /nope/x' }],
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/MK5/);
    // Refused, they opened no namespace.
    expect(await namespaces()).toBe(before);
  } finally {
    await server.close();
  }
});

test(
  'capture from a host whose answer is over 16 MiB stops at the limit: one line, exit code 1, the file not written',
  async () => {
    const huge = createServer((req, res) => {
      if (req.url?.startsWith('/api/authorization/access_token')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            access_token: 'a'.repeat(43),
            token_type: 'Bearer',
            expires_in: 3600,
            refresh_token: 'r'.repeat(43),
          }),
        );
        return;
      }
      // An endless catalogue: 64 KiB chunks for as long as the client reads.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      res.write('{"items": [');
      const more = () => {
        while (res.write(chunk)) if (res.writableLength > 1 << 20) break;
      };
      res.on('drain', more);
      more();
      req.on('close', () => res.destroy());
    });
    await new Promise<void>((resolve) => huge.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(huge.address() as AddressInfo).port}`;
    try {
      const out = join(mkdtempSync(join(tmpdir(), 'capture-huge-')), 'catalogue.json');
      const args = [
        'capture',
        '--api',
        base,
        '--auth',
        base,
        '--client-id',
        'c',
        '--organisation',
        '0a0000000000000000000001',
      ];
      const { code, stderr } = await collect(run([...args, '--out', out], { env: { PLATFORM_CLIENT_SECRET: 's' } }));
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toContain('over 16 MiB');
      expect(code).toBe(1);
      expect(existsSync(out)).toBe(false);
    } finally {
      huge.closeAllConnections();
      await new Promise((resolve) => huge.close(resolve));
    }
  },
  CLI_TEST_TIMEOUT_MS,
);

test(
  'started by npx or npm run, the server stops when that parent is gone: killed, it passes no signal on',
  async () => {
    // A parent as npx is: it starts the CLI (npm_command set, as npm sets it) and is then killed.
    const script = `const { spawn } = require('node:child_process');
const child = spawn(process.execPath, [${JSON.stringify(CLI)}, '--port', '0', '--quiet'], {
  env: { ...process.env, npm_command: 'exec' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
child.stdout.on('data', (chunk) => {
  if (String(chunk).includes('listening on')) process.stdout.write(String(child.pid) + '\\n');
});`;
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve) =>
      parent.stdout.on('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
    );
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    parent.kill('SIGKILL');
    await until(() => expect(alive()).toBe(false), CLI_TEST_TIMEOUT_MS / 2);
  },
  CLI_TEST_TIMEOUT_MS,
);

test(
  'started by npm run through a shell and a loader that outlive npm (npm, sh -c, tsx, the CLI): the server stops once npm is gone',
  async () => {
    const directory = mkdtempSync(join(tmpdir(), 'platform-mock-npm-'));
    // As tsx is: it starts the CLI and waits for it, whatever becomes of its own parent.
    const loader = join(directory, 'loader.js');
    writeFileSync(
      loader,
      `const child = require('node:child_process').spawn(process.execPath, process.argv.slice(2), { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));`,
    );
    // As npm is: known by its script's name, it starts the loader with npm_command set; then it is killed.
    const npm = join(directory, 'npm-cli.js');
    writeFileSync(
      npm,
      `const loader = require('node:child_process').spawn(process.execPath, [${JSON.stringify(loader)}, ${JSON.stringify(CLI)}, '--port', '0', '--quiet'], {
  env: { ...process.env, npm_command: 'run-script' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
loader.stdout.on('data', (chunk) => {
  const url = /listening on ([^ \\n]+)/.exec(String(chunk));
  if (url) process.stdout.write(loader.pid + ' ' + url[1] + '\\n');
});`,
    );
    const parent = spawn(process.execPath, [npm], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [loaderPid, url] = await new Promise<[number, string]>((resolve) =>
      parent.stdout.on('data', (chunk: Buffer) => {
        const [pid = '', origin = ''] = String(chunk).trim().split(' ');
        resolve([Number(pid), origin]);
      }),
    );
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      expect((await fetch(`${url}/__admin/clock`)).status).toBe(200);
      parent.kill('SIGKILL');
      await until(async () => {
        await expect(fetch(`${url}/__admin/clock`)).rejects.toThrow();
      }, CLI_TEST_TIMEOUT_MS / 2);
      // The loader ends with the CLI.
      await until(() => expect(alive(loaderPid)).toBe(false), CLI_TEST_TIMEOUT_MS / 2);
    } finally {
      // On a failure, the CLI's own parent goes, which it does watch.
      if (alive(loaderPid)) process.kill(loaderPid, 'SIGKILL');
    }
  },
  CLI_TEST_TIMEOUT_MS,
);
