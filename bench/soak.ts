/**
 * `npm run soak`: a million mixed requests against the standalone server (`platform-mock`, bundled
 * and started in a child process), printing the server's resident memory (RSS) after warm-up,
 * every 100,000 requests and at the end. What a server that runs for weeks sees: client-credentials
 * grants, tickets and their exchange, refreshes, a replayed ticket (refused), SSO `createsession`,
 * `authenticatewithticket` and a wrong password for a new address, a shop login with a ticket,
 * reads, a price update (a write), refused reads and writes, a `GET /__admin/state` now and then;
 * the platform clock moves ten minutes every 480 requests (about two weeks in all), so that tokens,
 * tickets and sessions expire as it goes.
 *
 *   npm run soak                         a million requests
 *   npm run soak -- --requests 200000    fewer
 *   npm run soak -- --root <dir>         the server of another checkout (its mock/node/cli.ts)
 *
 * Exits non-zero when the RSS at the end is over 300 MB, or has grown by more than half since the
 * first 100,000 requests (flat after warm-up).
 *
 * Measured on a 2-core machine under a load of 15 to 20 (Node 20, 8 requests in flight), 300,000
 * requests in 38 minutes: RSS 72 MB at the start, 158 MB at 100,000, 166 MB at 200,000, 171 MB at
 * 300,000 (117 to 177 MB sampled between, as the collector runs), with 10,000 access tokens (the
 * cap), 60 tickets and 6,229 SSO sessions kept at the end. Before records were dropped, 40,000
 * requests had already left 9,324 access tokens, 8,651 tickets and 2,598 SSO sessions, growing with
 * every request.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildSync } from 'esbuild';
import { SignJWT } from 'jose';
import { DEMO_SSO_AUDIENCE, demoCredentials, demoIds, demoShop, demoSite } from '../mock/index.js';
import * as table from '../src/endpoints.js';
import { pathOf } from '../src/endpoints.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '1000000' },
    root: { type: 'string', default: '.' },
    concurrency: { type: 'string', default: '8' },
  },
});
const TOTAL = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const ROOT = resolve(values.root);
const REPORT_EVERY = 100_000;
const LIMIT_MB = 300;

const path = (e: table.Endpoint) => pathOf(e, 'stage');
const MARKET = `/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}`;
const { anna } = demoIds.accounts;

/** The CLI bundled into one file (its packages left to node_modules), in `<root>/.tmp/`. */
function bundleCli(): string {
  const dir = resolve(ROOT, '.tmp');
  mkdirSync(dir, { recursive: true });
  const outfile = resolve(dir, `soak-cli.${process.pid}.mjs`);
  buildSync({
    entryPoints: [resolve(ROOT, 'mock/node/cli.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

/** Starts the server on a free port; answers its URL once it listens. */
function start(file: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [file, '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((ok, fail) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) ok({ child, url: m[1]! });
    });
    child.on('exit', (code) => fail(new Error(`the server exited with ${code}: ${output}`)));
  });
}

/** The resident memory of process `pid`, in MB (Linux: /proc; elsewhere `ps`). */
async function rssMb(pid: number): Promise<number> {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    if (Number.isFinite(kb)) return kb / 1024;
  } catch {
    // Not Linux: ask ps.
  }
  const ps = spawn('ps', ['-o', 'rss=', '-p', String(pid)]);
  let out = '';
  ps.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  await new Promise((ok) => ps.on('close', ok));
  return Number(out.trim()) / 1024;
}

/** The soak's requests against `base`, counted. */
function client(base: string) {
  let sent = 0;
  let resent = 0;
  const statuses = new Map<number, number>();
  async function send(
    p: string,
    init: { method?: string; json?: unknown; form?: Record<string, string>; token?: string } = {},
  ): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    let body: string | undefined;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] = 'application/json';
    } else if (init.form !== undefined) {
      body = new URLSearchParams(init.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
    const method = init.method ?? (body === undefined ? 'GET' : 'POST');
    const request = () => fetch(`${base}${p}`, { method, headers, body, redirect: 'manual' });
    let answer: Response;
    try {
      answer = await request();
    } catch {
      // A kept-alive socket the server closed as this request went out: sent again, once, and counted.
      resent++;
      answer = await request();
    }
    const text = await answer.text();
    sent++;
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: answer.status, body: parsed };
  }
  return {
    send,
    get sent() {
      return sent;
    },
    get resent() {
      return resent;
    },
    statuses,
  };
}

/** A request token of the demo site for an SSO operation, its times taken from the server's clock. */
function ssoToken(nowSeconds: number, claims: Record<string, unknown>): Promise<string> {
  return new SignJWT({ cid: demoSite.clientId, ipa: '203.0.113.7', uas: 'soak', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(nowSeconds)
    .setNotBefore(nowSeconds)
    .setExpirationTime(nowSeconds + 10)
    .setIssuer(demoSite.organisationId)
    .setAudience(DEMO_SSO_AUDIENCE)
    .sign(new TextEncoder().encode(demoSite.clientSecret));
}

/**
 * A string field of an answer, or '' when it has none: a round goes on with what it got, as the
 * clock that another round moves on may expire a ticket in between (its next request is refused).
 */
const field = (body: unknown, key: string): string => {
  const value = (body as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' ? value : '';
};

const sessionId = (envelope: unknown): string => {
  const payload = field(envelope, 't').split('.')[1] ?? '';
  try {
    return field(JSON.parse(Buffer.from(payload, 'base64url').toString()), 'sid');
  } catch {
    return '';
  }
};

async function main(): Promise<void> {
  const file = bundleCli();
  const { child, url } = await start(file);
  try {
    await soak(child, url);
  } finally {
    child.kill();
    rmSync(file, { force: true });
  }
}

/** Sends the requests to the server at `url`, sampling the RSS of `child`; prints what it saw. */
async function soak(child: ChildProcess, url: string): Promise<void> {
  const c = client(url);
  const site = { client_id: demoSite.clientId, client_secret: demoSite.clientSecret };
  const admin = { client_id: demoCredentials.clientId, client_secret: demoCredentials.clientSecret };
  let clockSeconds = 0;
  const readClock = async () => {
    const now = Date.parse(field((await c.send('/__admin/clock')).body, 'now'));
    clockSeconds = Math.floor(now / 1000);
  };
  await readClock();
  let rounds = 0;
  let wrong = 0;

  /** One round of the mix: 13 to 16 requests. */
  async function round(): Promise<void> {
    const r = ++rounds;
    const s2s = (await c.send(path(table.accessToken), { form: { grant_type: 'none', ...site } })).body;
    const s2sToken = field(s2s, 'access_token');
    const ticket = async (clientId: string) =>
      field(
        (await c.send(path(table.generateTicket), { json: { accountId: anna, clientId }, token: s2sToken })).body,
        'ticket',
      );
    const t = await ticket(demoSite.clientId);
    const exchange = () => c.send(path(table.accessToken), { json: { grant_type: 'ticket', ticket: t, ...site } });
    const user = (await exchange()).body;
    await c.send(path(table.accessToken), {
      json: { grant_type: 'refresh_token', refresh_token: field(user, 'refresh_token'), ...site },
    });
    await exchange(); // a replay: refused, and revokes what the ticket issued
    const created = await c.send(path(table.ssoCreateSession), {
      json: { t: await ssoToken(clockSeconds, { apn: 'soak', apv: '1', osn: 'linux', osv: '1' }) },
    });
    const sid = sessionId(created.body);
    const at = await ticket(demoSite.clientId);
    await c.send(path(table.authenticateWithTicket), { json: { t: await ssoToken(clockSeconds, { sid, at }) } });
    await c.send(`${MARKET}?at=${await ticket(demoShop.clientId)}`);
    await c.send(path(table.getProducts), { token: s2sToken });
    await c.send(path(table.getProducts), { token: 'not-a-token' });
    await c.send(`${path(table.getProducts)}?nope=1`, { token: s2sToken });
    if (r % 4 === 0) {
      const write = field(
        (await c.send(path(table.accessToken), { form: { grant_type: 'none', ...admin } })).body,
        'access_token',
      );
      const period = {
        subscription_type: 'recurring',
        payment_option: 'creditcard',
        type: 'month',
        length: 1,
        price: 10 + (r % 7),
      };
      const json = { package_integration_code: 'PREMIUM-DIGITAL', price_periods: [period] };
      await c.send(path(table.updatePrices), { json, token: write });
      await c.send(path(table.updatePrices), { json: { price_periods: [period] }, token: write });
    }
    if (r % 10 === 0) {
      const usr = `nobody-${++wrong}@example.com`;
      await c.send(path(table.ssoAuthenticate), {
        json: { t: await ssoToken(clockSeconds, { sid, usr, pwd: 'wrong-password' }) },
      });
    }
    if (r % 40 === 0) {
      await c.send('/__admin/clock', { json: { advance_seconds: 600 } });
      await readClock();
    }
    if (r % 2000 === 0) await c.send('/__admin/state');
  }

  const samples: { requests: number; rss: number }[] = [];
  let next = REPORT_EVERY;
  const sample = async (label: string) => {
    const rss = await rssMb(child.pid ?? 0);
    samples.push({ requests: c.sent, rss });
    console.log(`${label.padEnd(12)} ${String(c.sent).padStart(9)} requests  RSS ${rss.toFixed(1)} MB`);
  };
  await sample('started');
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (c.sent < TOTAL) {
        await round();
        if (c.sent >= next) {
          next += REPORT_EVERY;
          await sample('');
        }
      }
    }),
  );
  await sample('end');
  const state = (await c.send('/__admin/state')).body as Record<string, unknown[]>;
  const sizes = ['access_tokens', 'tickets', 'sso_sessions'].map((k) => `${k} ${state[k]?.length}`).join(', ');
  console.log(`kept at the end: ${sizes}`);
  const byStatus = [...c.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
  console.log(`statuses: ${byStatus.join(', ')}; sent again on a socket the server had closed: ${c.resent}`);
  console.log(`${((Date.now() - started) / 1000).toFixed(0)} s`);

  const end = samples.at(-1)?.rss ?? 0;
  const warm = samples.find((s) => s.requests >= REPORT_EVERY)?.rss ?? end;
  const flat = end <= warm * 1.5;
  console.log(
    `end ${end.toFixed(1)} MB (limit ${LIMIT_MB}), after warm-up ${warm.toFixed(1)} MB: ${flat ? 'flat' : 'GROWING'}`,
  );
  if (end > LIMIT_MB || !flat) process.exitCode = 1;
}

await main();
