/**
 * `platform-mock capture`: a platform's catalogue read through the SDK and written as a state
 * document. `platform-mock` itself stands in for the real platform: a capture of one of the demo's
 * organisations, served by a second server, answers the same catalogue as the first.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { StateDocumentInput } from '../../mock/index.js';
import { demoIds } from '../../mock/index.js';
import { type CaptureProgress, capture } from '../../mock/node/capture.js';
import { parseCommandLine, UsageError } from '../../mock/node/command-line.js';
import { type RunningServer, startServer } from '../../mock/node/server.js';
import { demoSeed } from '../../mock/seeds/demo.js';
import {
  getCancellationReason,
  getPaymentPeriods,
  getProductSharing,
  getProducts,
  listTitles,
} from '../../src/endpoints.js';
import { PlatformClient } from '../../src/index.js';
import { scopesOf } from '../fixtures.js';
import { CLI_TEST_TIMEOUT_MS, collect, run, stopAll } from './cli-process.js';

/** What a capture reads: a client with these reads every part of a catalogue. */
const SCOPES = scopesOf(getProducts, getPaymentPeriods, getProductSharing, getCancellationReason, listTitles);

function freshFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'platform-capture-')), 'catalogue.json');
}

function clientOf(server: RunningServer, clientId: string, clientSecret: string): PlatformClient {
  return new PlatformClient({
    environment: 'stage',
    hosts: { api: server.url, auth: server.url },
    auth: { clientId, clientSecret, scopes: SCOPES },
  });
}

/** Everything a catalogue answers through the SDK: products (inactive too), their payment periods and sharing, reasons, titles. */
async function catalogueOf(client: PlatformClient) {
  const { items: products } = await client.products.list({ include_inactive: true });
  const periods = [];
  const sharing = [];
  for (const p of products) {
    if (p.is_package || p.is_campaign) periods.push((await client.products.paymentPeriods({ product_id: p.id })).items);
    sharing.push((await client.products.sharing({ id: p.id })).item);
  }
  return {
    products,
    periods,
    sharing,
    reasons: (await client.cancellationReasons.list({ include_internal: true })).items,
    titles: (await client.titles.list()).items,
  };
}

let real: RunningServer;
beforeAll(async () => {
  real = await startServer({ port: 0, seed: 'demo', maxNamespaces: 0 });
});
afterAll(() => real.close());

describe.each([
  ['Demo Media (simple price model)', demoIds.organisations.demo, demoIds.clients.demo],
  ['Complex Media (complex price model)', demoIds.organisations.complex, demoIds.clients.complex],
])('a capture of %s', (_, organisation, { clientId, clientSecret }) => {
  test('served by a second server, answers the same products, periods, sharing, reasons and titles as the first', async () => {
    const out = freshFile();
    const steps: CaptureProgress[] = [];
    const captured = await capture(
      { api: real.url, auth: real.url, clientId, clientSecret, organisation, out },
      { progress: (p) => steps.push(p) },
    );
    const text = readFileSync(out, 'utf8');
    expect(JSON.parse(text)).toEqual(captured.document);
    expect(text).not.toContain(clientSecret);
    expect(steps.filter((s) => s.total !== undefined && s.done === s.total).map((s) => s.step)).toEqual([
      'products',
      'payment periods',
      'sharing options',
      'cancellation reasons',
      'titles',
    ]);

    const second = await startServer({ port: 0, seed: JSON.parse(text) as StateDocumentInput, maxNamespaces: 0 });
    try {
      const demo = captured.clients[0]!;
      const before = await catalogueOf(clientOf(real, clientId, clientSecret));
      const after = await catalogueOf(clientOf(second, demo.clientId, demo.clientSecret));
      expect(before.products.length).toBeGreaterThan(0);
      expect(after).toEqual(before);
    } finally {
      await second.close();
    }
  });
});

test('a plain-http host on another machine, as given on the command line, is read (the SDK would refuse it without allowInsecureHttp)', async () => {
  const { clientId, clientSecret } = demoIds.clients.demo;
  const lan = 'http://platform-mock.lan.test:4010';
  const hosts: string[] = [];
  const toReal: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    hosts.push(url.origin);
    const there = `${real.url}${url.pathname}${url.search}`;
    return input instanceof Request ? fetch(new Request(there, input), init) : fetch(there, init);
  };
  const captured = await capture(
    { api: lan, auth: lan, clientId, clientSecret, organisation: demoIds.organisations.demo, out: freshFile() },
    { fetch: toReal },
  );
  expect(captured.document.products?.length).toBeGreaterThan(0);
  expect(new Set(hosts)).toEqual(new Set(['http://platform-mock.lan.test:4010']));
});

test('the demo clients and users run at once: fresh secrets, a user logs in to the shop of the active packages', async () => {
  const { clientId, clientSecret } = demoIds.clients.demo;
  const out = freshFile();
  const first = await capture({
    api: real.url,
    auth: real.url,
    clientId,
    clientSecret,
    organisation: demoIds.organisations.demo,
    out,
  });
  const again = await capture({
    api: real.url,
    auth: real.url,
    clientId,
    clientSecret,
    organisation: demoIds.organisations.demo,
    out: freshFile(),
  });
  expect(again.clients.map((c) => c.clientSecret)).not.toContain(first.clients[0]!.clientSecret);
  const document = JSON.parse(readFileSync(out, 'utf8')) as StateDocumentInput;
  expect(JSON.stringify(document)).not.toContain(first.users[0]!.password);
  expect(document.marketplaces?.[0]?.product_codes).toEqual(['premium-digital', 'premium-summer', 'basic-news']);

  const second = await startServer({ port: 0, seed: document, maxNamespaces: 0 });
  try {
    const user = first.users[0]!;
    const store = `${second.url}${first.marketplacePath}`;
    const form = await fetch(store);
    const csrf = /name="csrf_token" value="([^"]*)"/.exec(await form.text())?.[1] ?? '';
    const cookiesOf = (answer: Response) =>
      answer.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
    const loggedIn = await fetch(`${second.url}/shop/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookiesOf(form) },
      body: new URLSearchParams({ csrf_token: csrf, group_id: 'demo', marketplace_id: 'main', ...user }),
    });
    expect(loggedIn.status, await loggedIn.text()).toBe(303);
    expect(loggedIn.headers.get('location')).toBe(first.marketplacePath);
    const shop = await (await fetch(store, { headers: { cookie: cookiesOf(loggedIn) } })).text();
    expect(shop).toContain('data-testid="product-premium-digital"');
  } finally {
    await second.close();
  }
});

test('the marketplace of the document sells what is on sale now: a package that starts later, or has ended, is captured but not on sale', async () => {
  const basic = demoSeed.products?.find((p) => p.product_code === 'basic-news');
  if (!basic) throw new Error('the demo seed has basic-news');
  /** A Demo Media package like basic-news, on sale from `valid_from` until `valid_to`. */
  const packageOf = (id: string, code: string, periodId: string, valid_from: string, valid_to: string) => ({
    ...basic,
    id,
    product_code: code,
    name: code,
    valid_from,
    valid_to,
    price_periods: basic.price_periods.map((pp) => ({ ...pp, id: periodId })),
  });
  const seed: StateDocumentInput = {
    ...demoSeed,
    products: [
      ...(demoSeed.products ?? []),
      packageOf(
        'b000000000000000000000f1',
        'starts-later',
        'c000000000000000000000f1',
        '2990-01-01T00:00:00Z',
        '2999-12-31T23:59:59Z',
      ),
      packageOf(
        'b000000000000000000000f2',
        'has-ended',
        'c000000000000000000000f2',
        '2001-01-01T00:00:00Z',
        '2002-01-01T00:00:00Z',
      ),
    ],
  };
  const server = await startServer({ port: 0, seed, maxNamespaces: 0 });
  try {
    const { clientId, clientSecret } = demoIds.clients.demo;
    const out = freshFile();
    await capture({
      api: server.url,
      auth: server.url,
      clientId,
      clientSecret,
      organisation: demoIds.organisations.demo,
      out,
    });
    const document = JSON.parse(readFileSync(out, 'utf8')) as StateDocumentInput;
    expect(document.products?.map((p) => p.product_code)).toEqual(
      expect.arrayContaining(['starts-later', 'has-ended', 'premium-digital', 'premium-summer', 'basic-news']),
    );
    const onSale = document.marketplaces?.[0]?.product_codes;
    expect(onSale).not.toContain('starts-later');
    expect(onSale).not.toContain('has-ended');
    expect(onSale).toEqual(['premium-digital', 'premium-summer', 'basic-news']);
  } finally {
    await server.close();
  }
});

test('a client with /external/product/r only: reasons and titles are skipped, saying why; the products are captured', async () => {
  const { clientId, clientSecret } = demoIds.clients.reader;
  const steps: CaptureProgress[] = [];
  const captured = await capture(
    {
      api: real.url,
      auth: real.url,
      clientId,
      clientSecret,
      organisation: demoIds.organisations.demo,
      out: freshFile(),
    },
    { progress: (p) => steps.push(p) },
  );
  expect(steps.filter((s) => s.skipped).map((s) => [s.step, s.skipped])).toEqual([
    ['cancellation reasons', 'the client has no /external/cancellation_reason/r'],
    ['titles', 'the client has no /external/title/r'],
  ]);
  expect(captured.document.cancellation_reasons).toEqual([]);
  expect(captured.document.products?.length).toBeGreaterThan(0);
});

describe('platform-mock capture', () => {
  afterEach(stopAll);

  test('the secret from PLATFORM_CLIENT_SECRET; progress on standard error, the demo secrets on standard output, none of the caller in the file', {
    timeout: CLI_TEST_TIMEOUT_MS,
  }, async () => {
    const { clientId, clientSecret } = demoIds.clients.demo;
    const out = freshFile();
    const args = ['capture', '--api', real.url, '--auth', real.url, '--client-id', clientId];
    const child = run([...args, '--organisation', demoIds.organisations.demo, '--out', out], {
      env: { PLATFORM_CLIENT_SECRET: clientSecret },
    });
    const { code, stdout, stderr } = await collect(child);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('capture: products 6/6\n');
    expect(stderr).toContain('capture: titles 2/2\n');
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(clientSecret);
    const document = JSON.parse(text) as StateDocumentInput;
    const secret = document.clients?.find((c) => c.client_id === 'captured-client')?.client_secret ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(stdout).toContain(`captured-client / ${secret}`);
    expect(stdout).toContain(`Serve it: platform-mock --seed ${out}`);
  });

  test('a wrong secret: one line naming the answer, exit code 1, no file', {
    timeout: CLI_TEST_TIMEOUT_MS,
  }, async () => {
    const out = freshFile();
    const child = run([
      'capture',
      '--api',
      real.url,
      '--auth',
      real.url,
      '--client-id',
      demoIds.clients.demo.clientId,
      '--client-secret',
      'not-the-secret',
      '--organisation',
      demoIds.organisations.demo,
      '--out',
      out,
    ]);
    const { code, stderr } = await collect(child);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^platform-mock: the platform answered 401 /m);
    expect(stderr).not.toContain('not-the-secret');
    expect(() => readFileSync(out)).toThrow();
  });
});

describe('the command line of capture', () => {
  const full = [
    'capture',
    '--api',
    'https://api.example.com',
    '--auth',
    'https://auth.example.com',
    '--client-id',
    'c',
    '--organisation',
    '0a0000000000000000000001',
    '--out',
    'out.json',
  ];

  test('every flag is required; the secret may come from PLATFORM_CLIENT_SECRET', () => {
    expect(parseCommandLine([...full, '--client-secret', 's'])).toEqual({
      action: 'capture',
      options: {
        api: 'https://api.example.com',
        auth: 'https://auth.example.com',
        clientId: 'c',
        clientSecret: 's',
        organisation: '0a0000000000000000000001',
        out: 'out.json',
      },
    });
    expect(parseCommandLine(full, { PLATFORM_CLIENT_SECRET: 'e' })).toMatchObject({ options: { clientSecret: 'e' } });
    expect(() => parseCommandLine(full)).toThrow(
      new UsageError('capture needs --client-secret <secret> (or PLATFORM_CLIENT_SECRET set)'),
    );
    expect(() =>
      parseCommandLine(
        full.filter((a) => a !== '--out' && a !== 'out.json'),
        { PLATFORM_CLIENT_SECRET: 'e' },
      ),
    ).toThrow(new UsageError('capture needs --out <file>'));
  });

  test('a URL that is not http(s), an organisation that is not an id, a serving flag: usage errors naming the flag', () => {
    const env = { PLATFORM_CLIENT_SECRET: 'e' };
    expect(() =>
      parseCommandLine(
        full.map((a) => (a === 'https://api.example.com' ? 'ftp://x' : a)),
        env,
      ),
    ).toThrow(/^invalid --api: ftp:\/\/x \(must be an absolute http\(s\) URL, e\.g\. https:\/\/api\.example\.com\)$/);
    expect(() =>
      parseCommandLine(
        full.map((a) => (a === '0a0000000000000000000001' ? 'demo' : a)),
        env,
      ),
    ).toThrow(/^invalid --organisation: demo/);
    expect(() => parseCommandLine([...full, '--port', '1'], env)).toThrow(UsageError);
    expect(parseCommandLine(['capture', '--help'])).toEqual({ action: 'capture-help' });
  });
});
