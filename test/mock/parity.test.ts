/**
 * `platform-mock parity`: the same scenarios against a platform and against the reference platform.
 * No real stage here: `platform-mock` itself is the platform under test (no difference), and a
 * drifting stand-in in front of it (a proxy in this file that changes one answer) must be reported
 * once, at the step it changed, and nothing else.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { flagOf } from '../../mock/core/options.js';
import { parityHelpText, parseCommandLine } from '../../mock/node/command-line.js';
import { type ParityReport, type ParityTarget, runParity } from '../../mock/node/index.js';
import { ParityCommandSchema } from '../../mock/node/options.js';
import { type RunningServer, startServer } from '../../mock/node/server.js';
import { DEMO_SSO_AUDIENCE, demoIds } from '../../mock/seeds/demo.js';
import { accessToken, pathOf } from '../../src/endpoints.js';
import { CLI_TEST_TIMEOUT_MS, collect, run, stopAll } from './cli-process.js';

const { clientId, clientSecret } = demoIds.clients.demo;
const ORGANISATION = demoIds.organisations.demo;
const ACCOUNT = demoIds.accounts.anna;

/** What a run against the demo's first organisation is given besides its hosts. */
const DEMO = { account: ACCOUNT, ssoAudience: DEMO_SSO_AUDIENCE, marketplace: 'demo/main' } as const;

function targetAt(url: string): ParityTarget {
  return { api: url, auth: url, sso: url, shop: url, clientId, clientSecret, organisation: ORGANISATION };
}

/** The differences of a report, as a test names them. */
function found(report: ParityReport) {
  return report.differences.map((d) => ({ scenario: d.scenario, step: d.step, kind: d.kind, at: d.at }));
}

/** A request the stand-in saw, and the status the platform answered it. */
interface Seen {
  readonly method: string;
  readonly url: string;
  readonly status: number;
}

/** An answer as the stand-in may change it: status, headers and the parsed JSON body. */
interface Passing {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A change the stand-in makes to the first answer whose request `matches`. */
interface Drift {
  readonly matches: (method: string, url: URL, headers: IncomingMessage['headers']) => boolean;
  readonly change: (answer: Passing) => void;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** Sends `req` on to `url` with its method, headers and body (read here): the answer, and the body sent. */
async function forward(
  req: IncomingMessage,
  url: URL,
): Promise<{ body: Buffer; answer: { status: number; headers: Record<string, string>; body: Buffer } }> {
  const body = await readAll(req);
  const answer = await new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>(
    (resolve, reject) => {
      const out = request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, async (r) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(r.headers)) if (typeof v === 'string') headers[k] = v;
        resolve({ status: r.statusCode ?? 0, headers, body: await readAll(r) });
      });
      out.on('error', reject);
      out.end(body);
    },
  );
  return { body, answer };
}

/** A proxy in front of `upstream` that applies `drift` once and records every request. */
async function standIn(
  upstream: string,
  drift?: Drift,
): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  let applied = false;
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', upstream);
    const { answer } = await forward(req, url);
    seen.push({ method: req.method ?? '', url: url.pathname + url.search, status: answer.status });
    let sent = answer.body;
    if (drift && !applied && drift.matches(req.method ?? '', url, req.headers)) {
      applied = true;
      const passing: Passing = { status: answer.status, headers: answer.headers, body: JSON.parse(sent.toString()) };
      drift.change(passing);
      sent = Buffer.from(JSON.stringify(passing.body));
      answer.status = passing.status;
      answer.headers = passing.headers;
    }
    delete answer.headers['content-length'];
    delete answer.headers['transfer-encoding'];
    res.writeHead(answer.status, { ...answer.headers, 'content-length': String(sent.length) });
    res.end(sent);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The state document without what grants and SSO operations write (tokens, tickets, sessions): what a write changes. */
function written(server: RunningServer): unknown {
  const { access_tokens, tickets, sso_sessions, ...rest } = server.platform.snapshot();
  void access_tokens;
  void tickets;
  void sso_sessions;
  return rest;
}

let platform: RunningServer;
beforeEach(async () => {
  platform = await startServer({ port: 0, seed: 'demo', maxNamespaces: 0 });
});
afterEach(() => platform.close());

describe('against platform-mock itself', () => {
  test('every scenario runs and nothing differs: no difference, no extra member, only the writes skipped', async () => {
    const report = await runParity({ target: targetAt(platform.url), ...DEMO });
    expect(found(report)).toEqual([]);
    expect(report.extras).toEqual([]);
    const skipped = report.results.filter((r) => r.outcome === 'skipped').map((r) => `${r.step}: ${r.reason}`);
    expect(skipped).toEqual([
      "a package's first price raised by one: a write: sent only with --allow-writes",
      "the package's first price put back: its write was not sent",
      'provision user-product on the test account, far in the future: a write: sent only with --allow-writes',
      'the provisioned user-product deactivated: its write was not sent',
      'the provisioned user-product made limited: a write: sent only with --allow-writes',
      'the provisioned user-product made recurring again: its write was not sent',
    ]);
    expect(report.results.length).toBeGreaterThan(300);
    // Refusals were compared, not only successes: every family of status is there on both sides.
    const statuses = new Set(report.results.map((r) => r.statuses?.target));
    for (const status of [200, 303, 400, 401, 403, 404, 405]) expect(statuses).toContain(status);
  });

  test('the SSO scenario run seven times against one target: the same each time (its wrong password names an e-mail new to each run, so the target freezes none)', async () => {
    for (let run = 1; run <= 7; run++) {
      const report = await runParity({ target: targetAt(platform.url), ...DEMO, only: ['sso'] });
      expect(found(report), `run ${run}`).toEqual([]);
      expect(report.results.filter((r) => r.outcome === 'same').length).toBeGreaterThan(10);
    }
  });

  test('without an account, the scenarios with a user are skipped and say so; without --sso, the SSO scenario', async () => {
    const report = await runParity({
      target: { ...targetAt(platform.url), sso: undefined },
      ssoAudience: DEMO_SSO_AUDIENCE,
    });
    expect(found(report)).toEqual([]);
    const reasons = new Set(
      report.results.filter((r) => r.outcome === 'skipped').map((r) => `${r.scenario}: ${r.reason}`),
    );
    expect(reasons).toContain('tickets: needs a test account (--account)');
    expect(reasons).toContain('sso: needs the SSO service (--sso)');
    expect(reasons).toContain('shop: needs the shop (--shop and --marketplace)');
  });

  test("a client without a scenario's scopes: that scenario is skipped, naming the refused grant, and the rest compared", async () => {
    const reader = demoIds.clients.reader;
    const report = await runParity({
      target: { ...targetAt(platform.url), clientId: reader.clientId, clientSecret: reader.clientSecret },
      ...DEMO,
    });
    expect(found(report)).toEqual([]);
    const helpdesk = report.results.filter((r) => r.scenario === 'helpdesk');
    expect(new Set(helpdesk.map((r) => `${r.outcome}: ${r.reason}`))).toEqual(
      new Set(['skipped: the client gets no token for /external/helpdesk/r: 400 invalid_scope']),
    );
    const products = report.results.filter((r) => r.scenario === 'products');
    expect(products.filter((r) => r.outcome === 'same').length).toBeGreaterThan(30);
    // A step whose token the client cannot get is skipped alone.
    expect(products.find((r) => r.step === 'get products with a token without its scope')?.reason).toBe(
      'the client gets no token for /external/title/r: 400 invalid_scope',
    );
  });

  test('with --allow-writes: each write is sent to the test account, undone at the end, and listed', async () => {
    const before = platform.platform.snapshot();
    const report = await runParity({ target: targetAt(platform.url), ...DEMO, allowWrites: true });
    expect(found(report)).toEqual([]);
    expect(report.results.filter((r) => r.outcome === 'skipped')).toEqual([]);
    expect(report.writes.map((w) => [w.scenario, w.step, w.undone])).toEqual([
      ['prices', "a package's first price raised by one", true],
      ['user-products', 'the provisioned user-product made limited', true],
      ['user-products', 'provision user-product on the test account, far in the future', true],
    ]);
    const after = platform.platform.snapshot();
    // The price is put back; the provisioned user-product stays, deactivated, on the test account only.
    const prices = (d: typeof before) => d.products.map((p) => p.price_periods.map((q) => q.price));
    expect(prices(after)).toEqual(prices(before));
    const added = after.user_products.filter((u) => !before.user_products.some((b) => b.id === u.id));
    expect(added.map((u) => [u.account_id, u.state, u.subscription_type])).toEqual([
      [ACCOUNT, 'deactivated', 'recurring'],
    ]);
  });
});

describe('a drifting stand-in: each drift is reported once, at the step it changed, and nothing else', () => {
  const items = (body: unknown) => (body as { items: Record<string, unknown>[] }).items;
  const cases: readonly {
    readonly drift: string;
    readonly rule: Drift;
    readonly expected: ReturnType<typeof found>;
    readonly extras?: readonly string[];
  }[] = [
    {
      drift: 'renames a member',
      rule: {
        matches: (m, u) => m === 'GET' && u.pathname.endsWith('/products') && u.search === '?product_type=packages',
        change: (a) => {
          for (const item of items(a.body)) {
            item.productCode = item.product_code;
            delete item.product_code;
          }
        },
      },
      expected: [{ scenario: 'products', step: 'get packages', kind: 'member', at: '/items/*/product_code' }],
      extras: ['/items/*/productCode'],
    },
    {
      drift: 'changes a status',
      rule: {
        matches: (_, u) => u.pathname.endsWith('/products') && u.searchParams.has('parity_unknown'),
        change: (a) => {
          a.status = 422;
        },
      },
      expected: [
        { scenario: 'products', step: 'get products with an unknown parameter', kind: 'status', at: 'status' },
      ],
    },
    {
      drift: 'changes an error code',
      rule: {
        matches: (_, u) => u.pathname.endsWith('/products') && u.searchParams.get('id') === 'fa17ed00fa17ed00fa17ed00',
        change: (a) => {
          (a.body as Record<string, unknown>).code = 'product_not_found';
        },
      },
      expected: [
        { scenario: 'products', step: 'get products by an id that names no product', kind: 'code', at: '/code' },
      ],
    },
    {
      drift: 'changes the field an error names',
      rule: {
        matches: (_, u) => u.pathname.endsWith('/products') && u.searchParams.get('id') === 'not-an-id',
        change: (a) => {
          (a.body as Record<string, unknown>).field = 'product_id';
        },
      },
      expected: [
        { scenario: 'products', step: 'get products by an id of the wrong shape', kind: 'field', at: '/field' },
      ],
    },
    {
      drift: 'drops a header',
      rule: {
        matches: (_, u, h) => u.pathname.endsWith('/products') && h.authorization === undefined,
        change: (a) => {
          delete a.headers['www-authenticate'];
        },
      },
      expected: [
        { scenario: 'products', step: 'get products without a token', kind: 'header', at: 'www-authenticate' },
      ],
    },
    {
      drift: 'changes a JSON type',
      rule: {
        matches: (_, u) => u.pathname.endsWith('/payment_periods') && u.searchParams.has('product_code'),
        change: (a) => {
          for (const item of items(a.body)) item.price = String(item.price);
        },
      },
      expected: [
        { scenario: 'products', step: 'get payment periods by product_code', kind: 'type', at: '/items/*/price' },
      ],
    },
    {
      drift: "changes a catalogue's value",
      rule: {
        matches: (_, u) => u.pathname.endsWith('/titles/find_one'),
        change: (a) => {
          (a.body as { item: Record<string, unknown> }).item.name = 'Another name';
        },
      },
      expected: [{ scenario: 'titles', step: 'find one title by title_code', kind: 'value', at: '/item/name' }],
    },
    {
      drift: 'adds a member: an extra, not a difference',
      rule: {
        matches: (_, u) => u.pathname.endsWith('/cancellation_reason') && u.searchParams.has('id'),
        change: (a) => {
          (a.body as { item: Record<string, unknown> }).item.parity_extra = true;
        },
      },
      expected: [],
      extras: ['/item/parity_extra'],
    },
  ];

  test.each(cases)('a stand-in that $drift', async ({ rule, expected, extras = [] }) => {
    const proxy = await standIn(platform.url, rule);
    try {
      const report = await runParity({ target: targetAt(proxy.url), ...DEMO });
      expect(found(report)).toEqual(expected);
      expect(report.extras.map((e) => e.at)).toEqual(extras);
      for (const d of report.differences) expect(d.row).toMatch(/ \/ /);
    } finally {
      await proxy.close();
    }
  });

  test('a stand-in that accepts a write the reference refuses is reported first, naming the request', async () => {
    const proxy = await standIn(platform.url, {
      matches: (m, u) => m === 'POST' && u.pathname.endsWith('/prices'),
      change: (a) => {
        a.status = 200;
        a.body = { id: 'fa17ed00fa17ed00fa17ed00' };
      },
    });
    try {
      const report = await runParity({ target: targetAt(proxy.url), ...DEMO });
      expect(report.differences[0]).toMatchObject({
        kind: 'accepted',
        scenario: 'prices',
        step: 'update prices without a token',
      });
      expect(report.differences[0]?.reference).toContain("Read the package's payment periods on the stage");
    } finally {
      await proxy.close();
    }
  });
});

describe('safe against a real stage by default', () => {
  test('without --allow-writes, the stand-in sees no request that changes state: every write it sees is refused', async () => {
    const proxy = await standIn(platform.url);
    try {
      const before = written(platform);
      const report = await runParity({ target: targetAt(proxy.url), ...DEMO });
      expect(found(report)).toEqual([]);
      const grantsAndSso =
        /\/api\/authorization\/|\/(createsession|sessionstatus|authenticate|authenticatewithticket|logout)$/;
      const writes = proxy.seen.filter(
        (s) => s.method !== 'GET' && !grantsAndSso.test(new URL(s.url, 'http://x').pathname),
      );
      expect(writes.length).toBeGreaterThan(50);
      expect(writes.filter((s) => s.status < 400)).toEqual([]);
      expect(written(platform)).toEqual(before);
    } finally {
      await proxy.close();
    }
  });

  test('--dry-run lists only what the run would send: without --sso and --account, no SSO request and no step of the test account', async () => {
    const { sso: _sso, shop: _shop, ...bare } = targetAt(platform.url);
    const planned = (await runParity({ target: bare, dryRun: true, only: ['sso', 'tickets'] })).planned;
    const run = await runParity({ target: bare, only: ['sso', 'tickets'] });
    expect(planned.join('\n')).not.toContain('{sso}');
    expect(planned).toContain('sso: skipped, sends nothing: needs the SSO service (--sso)');
    // Each step the plan lists is one the run sends: none it skips.
    const sent = run.results.filter((r) => r.outcome !== 'skipped').map((r) => `${r.scenario}: ${r.step}: `);
    const listed = planned.filter((line) =>
      /^(sso|tickets): (?!POST \{auth\}\/api\/authorization\/access_token)/.test(line),
    );
    expect(listed.filter((line) => !line.includes('skipped, sends nothing')).length).toBe(sent.length);
  });

  test('--dry-run sends nothing and lists every request, the secret as a placeholder', async () => {
    const proxy = await standIn(platform.url);
    try {
      const report = await runParity({ target: targetAt(proxy.url), ...DEMO, dryRun: true });
      expect(proxy.seen).toEqual([]);
      expect(report.results).toEqual([]);
      expect(report.planned.length).toBeGreaterThan(300);
      expect(report.planned.join('\n')).not.toContain(clientSecret);
      expect(report.planned.join('\n')).toContain('{client_secret}');
      expect(report.planned.join('\n')).toContain('the test account: a ticket, POST {auth}/api/authorization/ticket');
    } finally {
      await proxy.close();
    }
  });
});

describe("a stage that cannot give its catalogue: the run stops, naming the host (the command's exit code 2), no stack trace", () => {
  test('a catalogue read refused (503, after the read is retried): its status named', async () => {
    const stage = await startServer({ port: 0, seed: 'demo', maxNamespaces: 0 });
    try {
      stage.platform.faults.add({ path: '/external/api/v1/products', status: 503, times: 10 });
      await expect(runParity({ target: targetAt(stage.url), timeoutMs: 5_000 })).rejects.toThrow(
        `cannot reach ${stage.url}: its catalogue could not be read: 503 internal_server_error`,
      );
    } finally {
      await stage.close();
    }
  });

  test('a catalogue read slower than --timeout: it stops at the timeout, as every other answer does', async () => {
    const stage = await startServer({ port: 0, seed: 'demo', maxNamespaces: 0 });
    try {
      stage.platform.faults.add({ path: '/external/api/v1/products', latencyMs: 60_000, times: 10 });
      await expect(runParity({ target: targetAt(stage.url), timeoutMs: 300 })).rejects.toThrow(
        new RegExp(`^cannot reach ${stage.url}: .*within 300 ms`),
      );
    } finally {
      stage.platform.faults.clear();
      await stage.close();
    }
  });
});

test("a stage served under a path (a shared platform-mock's namespace): its redirects compared after the path, no difference", async () => {
  const stage = await startServer({ port: 0, seed: 'demo' });
  try {
    const report = await runParity({
      target: targetAt(`${stage.url}/_ns/parity-under-a-path`),
      marketplace: 'demo/main',
      only: ['shop'],
    });
    expect(report.results.length).toBeGreaterThan(0);
    expect(found(report)).toEqual([]);
  } finally {
    await stage.close();
  }
});

test("a price raised by one where the organisation's model answers none (complex): that step skipped, nothing sent with its placeholder", async () => {
  const stage = await startServer({ port: 0, seed: 'demo', maxNamespaces: 0 });
  try {
    const complex = demoIds.clients.complex;
    const report = await runParity({
      target: { ...targetAt(stage.url), ...complex, organisation: demoIds.organisations.complex },
      account: demoIds.accounts.dora,
      allowWrites: true,
      only: ['prices'],
    });
    const raised = report.results.filter((r) => r.step.includes('raise') || r.reason?.includes('period_price'));
    expect(raised.length).toBeGreaterThan(0);
    expect(raised.every((r) => r.outcome === 'skipped')).toBe(true);
    const sent = stage.platform.requests.list().filter((r) => r.path === '/external/api/v1/prices');
    expect(sent.map((r) => r.body ?? '').join('')).not.toMatch(/\{[a-z_]+\+\d+\}/);
  } finally {
    await stage.close();
  }
});

test('a target that does not answer whole in time stops the run, naming the host: no run waits for ever', async () => {
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  try {
    await expect(runParity({ target: targetAt(url), timeoutMs: 200 })).rejects.toThrow(
      `cannot reach ${url}: no whole answer within 200 ms`,
    );
  } finally {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});

describe('record once, check in CI without the stage', () => {
  test('a recorded snapshot directory replayed gives no difference; one edited by hand gives exactly that difference', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parity-snapshots-'));
    const recorded = await runParity({ target: targetAt(platform.url), ...DEMO, record: dir });
    expect(found(recorded)).toEqual([]);

    const files = readdirSync(dir).sort();
    expect(files).toContain('parity.json');
    expect(files).toContain('catalogue.json');
    expect(files).toContain('products.json');
    const all = files.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    for (const secret of [clientSecret, ACCOUNT, 'anna@example.com', 'Anna', ORGANISATION])
      expect(all).not.toContain(secret);

    const replayed = await runParity({ snapshots: dir });
    expect(found(replayed)).toEqual([]);
    expect(replayed.results.filter((r) => r.outcome === 'same').length).toBe(
      recorded.results.filter((r) => r.outcome === 'same').length,
    );

    const file = join(dir, 'products.json');
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as {
      steps: Record<string, { answer: { body: Record<string, unknown> } }>;
    };
    const step = snapshot.steps['get products by an id that names no product'];
    if (!step) throw new Error('the step was not recorded');
    step.answer.body.code = 'product_not_found';
    writeFileSync(file, JSON.stringify(snapshot));
    const edited = await runParity({ snapshots: dir });
    expect(found(edited)).toEqual([
      { scenario: 'products', step: 'get products by an id that names no product', kind: 'code', at: '/code' },
    ]);

    // A file broken by hand is named, with where and why, and nothing of what it holds.
    writeFileSync(file, '{"steps": {"x": hunter2-broken}}');
    await expect(runParity({ snapshots: dir })).rejects.toThrow(
      `${file} is not JSON: line 1, column 17: a value was expected here`,
    );
    await expect(runParity({ snapshots: dir })).rejects.not.toThrow(/hunter2/);
  });
});

describe('a recorded snapshot quotes no secret a stage echoes', () => {
  /** A proxy in front of `upstream` whose error answers quote back the request's bearer token and body, as some stages' do. */
  async function echoing(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
    const server: Server = createServer(async (req, res) => {
      const { body, answer } = await forward(req, new URL(req.url ?? '/', upstream));
      let sent = answer.body.toString();
      if (answer.status >= 400 && (answer.headers['content-type'] ?? '').includes('json')) {
        const parsed = JSON.parse(sent) as Record<string, unknown>;
        parsed.message = `${String(parsed.message)} (you sent ${req.headers.authorization ?? 'no token'} and ${body.toString()})`;
        sent = JSON.stringify(parsed);
      }
      delete answer.headers['content-length'];
      delete answer.headers['transfer-encoding'];
      res.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(sent)) });
      res.end(sent);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  }

  test('the client secret, the bearer tokens and the tickets a stage quotes in its errors are taken out of what --record writes', async () => {
    const proxy = await echoing(platform.url);
    try {
      const dir = mkdtempSync(join(tmpdir(), 'parity-echo-'));
      await runParity({ target: targetAt(proxy.url), ...DEMO, record: dir });
      const all = readdirSync(dir)
        .map((f) => readFileSync(join(dir, f), 'utf8'))
        .join('\n');
      // The stage did quote them: the messages kept say where.
      expect(all).toContain('(you sent [REDACTED] and ');
      expect(all).not.toContain(clientSecret);
      const issued = platform.platform.snapshot();
      const secrets = [
        ...issued.access_tokens.flatMap((t) => [t.access_token, t.refresh_token]),
        ...issued.tickets.map((t) => t.ticket),
      ];
      expect(secrets.length).toBeGreaterThan(0);
      for (const secret of secrets) expect(all).not.toContain(secret);
    } finally {
      await proxy.close();
    }
  });
});

describe('platform-mock parity, the command', () => {
  let shared: RunningServer;
  beforeAll(async () => {
    shared = await startServer({ port: 0, seed: 'demo', maxNamespaces: 0 });
  });
  afterAll(async () => {
    await stopAll();
    await shared.close();
  });

  const flags = (url: string) => [
    'parity',
    '--api',
    url,
    '--auth',
    url,
    '--client-id',
    clientId,
    '--organisation',
    ORGANISATION,
    '--sso-audience',
    DEMO_SSO_AUDIENCE,
  ];

  test('--help names every flag, and the secret is read from PLATFORM_CLIENT_SECRET when the flag is not given', () => {
    const help = parityHelpText();
    const declared = Object.values(ParityCommandSchema.shape).map((schema) => flagOf(schema)?.flag);
    expect(declared).toContain('--allow-writes');
    for (const flag of declared) expect(help).toContain(`  ${flag ?? 'an option without a flag'}`);
    expect(
      parseCommandLine([...flags('http://127.0.0.1:1'), '--only', 'products, titles'], { PLATFORM_CLIENT_SECRET: 's' }),
    ).toMatchObject({
      action: 'parity',
      options: { clientSecret: 's', only: ['products', 'titles'], allowWrites: false, ssoAudience: DEMO_SSO_AUDIENCE },
    });
  });

  test(
    'exit code 0 and "No difference."; the secret, from PLATFORM_CLIENT_SECRET, is in no output nor file',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'parity-cli-'));
      const json = join(dir, 'report.json');
      const junit = join(dir, 'report.xml');
      const child = run([...flags(shared.url), '--json', json, '--junit', junit], {
        env: { PLATFORM_CLIENT_SECRET: clientSecret },
      });
      const { code, stdout, stderr } = await collect(child);
      expect(stderr).toContain('parity: products');
      expect(stdout).toContain('No difference.');
      expect(code).toBe(0);
      const report = JSON.parse(readFileSync(json, 'utf8')) as ParityReport;
      expect(report.differences).toEqual([]);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toContain('<testsuite name="products"');
      expect(xml).not.toContain('<failure');
      for (const text of [stdout, stderr, readFileSync(json, 'utf8'), xml]) expect(text).not.toContain(clientSecret);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  test(
    'exit code 1 on a difference: the table names the step, both values and the assumptions row; JUnit fails that case',
    async () => {
      const proxy = await standIn(shared.url, {
        matches: (_, u) => u.pathname.endsWith('/products') && u.searchParams.get('id') === 'not-an-id',
        change: (a) => {
          (a.body as Record<string, unknown>).field = 'product_id';
        },
      });
      try {
        const junit = join(mkdtempSync(join(tmpdir(), 'parity-cli-')), 'report.xml');
        const child = run([...flags(proxy.url), '--client-secret', clientSecret, '--junit', junit]);
        const { code, stdout } = await collect(child);
        expect(stdout).toMatch(/get products by an id of the wrong shape\s+field\s+\/field\s+"product_id"\s+"id"/);
        expect(stdout).toContain('Requests and errors / Which field an error names');
        expect(stdout).toContain('1 difference.');
        expect(code).toBe(1);
        expect(readFileSync(junit, 'utf8').match(/<failure /g)).toHaveLength(1);
      } finally {
        await proxy.close();
      }
    },
    CLI_TEST_TIMEOUT_MS,
  );

  test(
    'exit code 2 when a host cannot be reached, in one line naming the flag',
    async () => {
      const closed = await startServer({ port: 0, seed: 'empty', maxNamespaces: 0 });
      const url = closed.url;
      await closed.close();
      const args = flags(shared.url);
      args[4] = url;
      const { code, stdout, stderr } = await collect(run([...args, '--client-secret', clientSecret]));
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toEqual([
        `platform-mock parity: cannot reach ${url}: ECONNREFUSED (check --auth)`,
      ]);
      expect(code).toBe(2);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  test.each([
    [
      '--only names a scenario there is not (naming the scenarios there are)',
      ['--only', 'products,nope'],
      /^platform-mock parity: no scenario nope \(there are: .*products.*\) \(check --only\)$/,
    ],
    [
      '--only names no scenario (a run of none would compare nothing, and pass)',
      ['--only', ''],
      /^platform-mock parity: --only names no scenario \(a run of none would compare nothing\) \(check --only\)$/,
    ],
    [
      'the platform refuses the client secret (no stack trace, and no secret)',
      ['--client-secret', 'not-the-secret-0123456789abcdef0123456789'],
      /^platform-mock parity: the platform refused the client's credentials: 401 invalid_client \(check --client-id and --client-secret\)$/,
    ],
  ])(
    'exit code 2 when %s, in one line naming the flag',
    async (_, args, line) => {
      // The last --client-secret given wins: the refused one, when a case gives it.
      const { code, stdout, stderr } = await collect(
        run([...flags(shared.url), '--client-secret', clientSecret, ...args]),
      );
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(line)]);
      expect(stderr).not.toContain('not-the-secret');
      expect(code).toBe(2);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  test.each([
    [
      'credentials',
      (url: string) => url.replace('http://', 'http://user:hunter2@'),
      'must not carry credentials (user:password@)',
    ],
    ['a query', (url: string) => `${url}/?k=hunter2`, 'must not carry a query or a fragment'],
    ['a fragment', (url: string) => `${url}/#hunter2`, 'must not carry a query or a fragment'],
  ])(
    'a host URL with %s is a usage error (exit code 2) naming --api, before anything is sent; a password is not quoted',
    async (_, broken, why) => {
      const args = flags(shared.url);
      args[2] = broken(shared.url);
      const journal = shared.platform.requests.list().length;
      const { code, stdout, stderr } = await collect(run([...args, '--client-secret', clientSecret]));
      expect(stdout).toBe('');
      expect(stderr).toContain('platform-mock: invalid --api: ');
      expect(stderr).toContain(why);
      expect(stderr.includes('user:hunter2')).toBe(false);
      expect(code).toBe(2);
      expect(shared.platform.requests.list().length).toBe(journal);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  test(
    'exit code 2, in one line, when the run stops for what is not a difference: a redirect of the token grant, a report that cannot be written',
    async () => {
      const token = pathOf(accessToken, 'stage');
      const redirecting = await standIn(shared.url, {
        matches: (method, url) => method === 'POST' && url.pathname === token,
        change: (answer) => {
          answer.status = 307;
          answer.headers.location = 'http://127.0.0.1:9/steal';
        },
      });
      try {
        const stopped = await collect(run([...flags(redirecting.url), '--client-secret', clientSecret]));
        expect(stopped.stdout).toBe('');
        expect(stopped.stderr.trim().split('\n').at(-1)).toMatch(
          /^platform-mock parity: (the run stopped|cannot reach)/,
        );
        expect(stopped.stderr).not.toContain(clientSecret);
        expect(stopped.stderr).not.toContain('    at ');
        expect(stopped.code).toBe(2);
      } finally {
        await redirecting.close();
      }
      const unwritable = join(mkdtempSync(join(tmpdir(), 'parity-cli-')), 'no-such-dir', 'report.json');
      const written = await collect(
        run([...flags(shared.url), '--client-secret', clientSecret, '--only', 'requests', '--json', unwritable]),
      );
      expect(written.stderr.trim().split('\n').at(-1)).toMatch(
        /^platform-mock parity: the report could not be written: .*\(check --json, --junit\)$/,
      );
      expect(written.code).toBe(2);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  test(
    'exit code 2 when the snapshots directory holds none, in one line naming the flag',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'parity-empty-'));
      const { code, stderr } = await collect(run(['parity', '--snapshots', dir]));
      expect(stderr).toBe(`platform-mock parity: no snapshots in ${dir} (check --snapshots)\n`);
      expect(code).toBe(2);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  test.each([
    [['parity', '--api', 'http://127.0.0.1:1'], 'parity needs --auth <auth_api_url>, or --snapshots <dir>'],
    [
      ['parity', '--snapshots', 'x', '--allow-writes'],
      '--allow-writes needs --account: the writes go to that one test account',
    ],
    [['parity', '--snapshots', 'x', '--record', 'y'], '--snapshots and --record exclude each other'],
    [
      ['parity', '--snapshots', 'x', '--account', 'nope'],
      'invalid --account: nope (must be an account id: 24 hexadecimal characters)',
    ],
  ])(
    'usage error, exit code 2: %j',
    async (args, message) => {
      const { code, stderr } = await collect(run(args));
      expect(stderr).toBe(`platform-mock: ${message}; see platform-mock parity --help\n`);
      expect(code).toBe(2);
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
