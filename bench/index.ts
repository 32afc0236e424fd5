/**
 * `npm run bench`: speed, memory and size, each against a baseline measured in the same run (or a
 * fixed budget, for size). Exits non-zero when a ratio is over its target.
 *
 *   1. an SDK call vs raw fetch + JSON.parse, against the same local platform server; peers
 *      (ky alone, openapi-fetch, ofetch, wretch) measured the same way, as reference rows; and each
 *      client's own work, given a `fetch` that answers at once, as reference rows;
 *   2. the platform answering in process under MSW vs a bare one-handler MSW response, for a read;
 *      and for a 1000-entry change-log batch (endpoint 4) sent through the SDK, vs a handler that
 *      parses and checks the body (the least any platform must do), the bare one as a reference;
 *   3. the standalone platform server (as built in dist/) vs a raw node:http handler returning the
 *      same JSON, one connection; and under load (`bench/throughput.ts`): 32 connections, a read
 *      and a write, with a server that only serializes each answer, the platform's server with
 *      the platform behind it replaced by prepared answers, and Prism mocking the same OpenAPI
 *      document as references;
 *   3b. the same servers handed connections that are streams in memory (`bench/in-memory.ts`): their
 *      own work per request, without the kernel or a client process, as references;
 *   4. the platform's heap per product record vs the same records as plain JSON objects;
 *   5. the bundle a site gets: the sign-on helpers alone, and the whole SDK entry.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import ky from 'ky';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { createFetch, ofetch } from 'ofetch';
import createFetchClient from 'openapi-fetch';
import wretch from 'wretch';
import QueryStringAddon from 'wretch/addons/queryString';
import { createHandlers, createPlatform, defaultHosts, demoIds } from '../mock/index.js';
import { PlatformClient } from '../src/index.js';
import { LogToAccountsRequest } from '../src/schemas/account-change-log.js';
import { builtMockNode, builtSdk } from './built.js';
import { compare, compareTogether, headToHead, over, progress, type Result, report } from './harness.js';
import { measureInMemory } from './in-memory.js';
import { measureHeapPerProduct } from './memory.js';
import { measureSizes } from './size.js';
import { measureThroughput, type ThroughputRow } from './throughput.js';

const PATH = '/external/api/v1/products';
const QUERY = { product_type: 'packages' } as const;
const SCOPES = ['/external/product/r'];

/** The peers a user could pick instead of the SDK, each calling the same endpoint. */
const PEERS = ['ky alone', 'openapi-fetch', 'ofetch', 'wretch'] as const;

/**
 * The peers' calls of get products, each given what the SDK is given (the origin, the headers, the
 * path and the query as an object) and called as its documentation shows, so that each builds the
 * URL as the SDK does; with `fetchImpl` as their `fetch`, when given. openapi-fetch is typed by a
 * generated `paths` type; the bench calls it untyped.
 */
function peerCalls(
  origin: string,
  headers: Record<string, string>,
  fetchImpl?: typeof fetch,
): Record<(typeof PEERS)[number], () => Promise<unknown>> {
  const given = fetchImpl ? { fetch: fetchImpl } : {};
  const kyClient = ky.create({ prefixUrl: origin, headers, ...given });
  const openapi = createFetchClient({ baseUrl: origin, headers, ...given });
  const ofetchClient = (fetchImpl ? createFetch({ fetch: fetchImpl }) : ofetch).create({ baseURL: origin, headers });
  const wretchClient = (fetchImpl ? wretch(origin).polyfills({ fetch: fetchImpl }) : wretch(origin))
    .addon(QueryStringAddon)
    .headers(headers);
  return {
    'ky alone': () => kyClient.get(PATH.slice(1), { searchParams: QUERY }).json(),
    'openapi-fetch': () => openapi.GET(PATH as never, { params: { query: QUERY } } as never),
    ofetch: () => ofetchClient(PATH, { query: QUERY }),
    wretch: () => wretchClient.url(PATH).query(QUERY).get().json(),
  };
}

/** Throws unless every peer answers `expected` (the SDK's answer): else the comparison would not be of the same work. */
async function sameAnswers(expected: unknown, peers: Record<string, () => Promise<unknown>>): Promise<void> {
  for (const [name, call] of Object.entries(peers)) {
    const answer = await call();
    const data = name === 'openapi-fetch' ? (answer as { data: unknown }).data : answer;
    if (JSON.stringify(data) !== JSON.stringify(expected))
      throw new Error(`${name} answered another body than the SDK`);
  }
}

/**
 * The SDK, and peers a user could pick instead, each against fetch + JSON.parse on the same server,
 * all in the same rounds; then the SDK against each peer, head to head, round by round. The SDK is
 * the published build (`dist/`), as the peers are (see `bench/built.ts`), and checks each answer
 * against its schema, which no peer does; a reference row shows it without that check.
 */
async function clientsVersusFetch(): Promise<Result[]> {
  const [{ PlatformClient: BuiltClient }, { startServer: startBuiltServer }] = await Promise.all([
    builtSdk(),
    builtMockNode(),
  ]);
  const server = await startBuiltServer({ port: 0, seed: 'demo' });
  const token = server.platform.mintToken({ scopes: SCOPES }).access_token;
  const options = {
    environment: 'stage',
    hosts: { api: server.url, auth: server.url },
    auth: { accessToken: token },
  } as const;
  const client = new BuiltClient(options);
  const unchecked = new BuiltClient({ ...options, validateResponses: false });
  const url = `${server.url}${PATH}?${new URLSearchParams(QUERY)}`;
  const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
  const sdk = 'SDK products.list';
  const peers = peerCalls(server.url, headers);
  await sameAnswers(await client.products.list(QUERY), peers);
  try {
    const { results, times } = await compareTogether(
      {
        name: 'fetch + JSON.parse (same local server)',
        run: async () => JSON.parse(await (await fetch(url, { headers })).text()),
      },
      [
        { name: sdk, run: () => client.products.list(QUERY), target: 1.15 },
        { name: 'reference: the SDK without its answer check', run: () => unchecked.products.list(QUERY) },
        ...PEERS.map((name) => ({ name: `reference: ${name}`, run: peers[name] })),
        // The least a fetch wrapper does: ofetch given the URL already built, as no call of the SDK is.
        { name: 'reference: ofetch given the whole URL', run: () => ofetch(url, { headers }) },
      ],
    );
    // Ahead of every peer: the SDK's time under each peer's, in the same rounds.
    return [...results, ...PEERS.map((name) => headToHead(times, sdk, `reference: ${name}`, 1))];
  } finally {
    await server.close();
  }
}

/**
 * Each client's own work, without a network: the SDK and its peers given a `fetch` that answers at
 * once (a new `Response` with the platform's answer to the call), each against that `fetch` with
 * `JSON.parse`, in the same rounds, then the SDK against each peer head to head. Reference rows:
 * through a local server the time of `fetch` itself (240 us a call or more on the bench's machine)
 * and its spread hide a few microseconds' difference between two clients.
 */
async function clientsOwnWork(): Promise<Result[]> {
  const { PlatformClient: BuiltClient } = await builtSdk();
  const platform = createPlatform({ seed: 'demo' });
  const token = platform.mintToken({ scopes: SCOPES }).access_token;
  const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
  const origin = defaultHosts.api;
  const url = `${origin}${PATH}?${new URLSearchParams(QUERY)}`;
  const answer = await platform.handle(new Request(url, { headers }));
  const body = await answer.text();
  const answerHeaders = Object.fromEntries(answer.headers);
  const atOnce: typeof fetch = async () => new Response(body, { status: 200, headers: answerHeaders });
  const options = {
    environment: 'stage',
    hosts: { api: origin, auth: origin },
    auth: { accessToken: token },
    fetch: atOnce,
  } as const;
  const client = new BuiltClient(options);
  const unchecked = new BuiltClient({ ...options, validateResponses: false });
  const sdk = 'own work: SDK products.list';
  const peers = peerCalls(origin, headers, atOnce);
  await sameAnswers(await client.products.list(QUERY), peers);
  const { results, times } = await compareTogether(
    {
      name: 'a fetch answering at once + JSON.parse',
      run: async () => JSON.parse(await (await atOnce(url, { headers })).text()),
    },
    [
      { name: sdk, run: () => client.products.list(QUERY) },
      { name: 'own work: the SDK without its answer check', run: () => unchecked.products.list(QUERY) },
      ...PEERS.map((name) => ({ name: `own work: ${name}`, run: peers[name] })),
    ],
    { ops: 1000 },
  );
  // Reference rows, without targets: the targets are on the calls through a server.
  return [...results, ...PEERS.map((name) => headToHead(times, sdk, `own work: ${name}`))];
}

async function mockInProcessVersusBareMsw(): Promise<Result> {
  const platform = createPlatform({ seed: 'demo' });
  const token = platform.mintToken({ scopes: SCOPES }).access_token;
  const url = `${defaultHosts.api}${PATH}?${new URLSearchParams(QUERY)}`;
  const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
  // The bare handler answers the very body the platform answers, so both sides move the same bytes.
  const body = await (await platform.handle(new Request(url, { headers }))).json();
  const bare = http.get(`${defaultHosts.api}${PATH}`, () => HttpResponse.json(body));
  const platformHandlers = createHandlers(platform, defaultHosts);
  const msw = setupServer();
  msw.listen({ onUnhandledRequest: 'error' });
  const call = async () => (await fetch(url, { headers })).json();
  try {
    return await compare({
      name: 'platform in process (MSW) vs bare one-handler MSW response',
      baseline: () => {
        msw.resetHandlers(bare);
        return call();
      },
      subject: () => {
        msw.resetHandlers(...platformHandlers);
        return call();
      },
      target: 1.05,
    });
  } finally {
    msw.close();
  }
}

/** A 1000-entry change-log batch (endpoint 4) through the SDK: the platform in process vs a bare MSW handler answering the same bytes. */
async function changeLogBatchVersusBareMsw(): Promise<Result[]> {
  const platform = createPlatform({ seed: 'demo' });
  const token = platform.mintToken({ scopes: ['/external/account_change_log/w'] }).access_token;
  const start = platform.snapshot();
  const client = new PlatformClient({ environment: 'stage', hosts: defaultHosts, auth: { accessToken: token } });
  const { anna, bo } = demoIds.accounts;
  const change_logs = Array.from({ length: 1000 }, (_, i) => ({
    account_id: i % 2 ? anna : bo,
    category_type: 'customer_contact',
    message: `Batch entry ${i}`,
    requested_by: 'bench',
  }));
  const path = `${defaultHosts.api}/external/api/v1/account_change_log/log_to_accounts`;
  const answer = await (
    await platform.handle(
      new Request(path, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ change_logs }),
      }),
    )
  ).json();
  const bare = http.put(path, () => HttpResponse.json(answer, { status: 207 }));
  // The least any platform must do with this request: read the body, parse it, check it.
  const parsing = http.put(path, async ({ request }) => {
    LogToAccountsRequest.parse(JSON.parse(await request.text()));
    return HttpResponse.json(answer, { status: 207 });
  });
  platform.restore(start);
  const platformHandlers = createHandlers(platform, defaultHosts);
  const msw = setupServer();
  msw.listen({ onUnhandledRequest: 'error' });
  const call = () => client.accountChangeLog.logToAccounts({ change_logs });
  try {
    const useBare = () => {
      msw.resetHandlers(bare);
      return call();
    };
    const useParsing = () => {
      msw.resetHandlers(parsing);
      return call();
    };
    const usePlatform = () => {
      msw.resetHandlers(...platformHandlers);
      return call();
    };
    // The subject logs 20,000 entries a round: each round starts from the same state again.
    const betweenRounds = () => platform.restore(start);
    return [
      // What the target is measured against: a handler that reads, parses and checks the 128 KB body
      // (what any platform must do) and answers the same bytes. The bare handler never reads it.
      await compare({
        name: 'SDK: a 1000-entry change-log batch, platform in process vs an MSW handler that parses and checks the body',
        baseline: useParsing,
        subject: usePlatform,
        target: 1.3,
        ops: 20,
        betweenRounds,
      }),
      await compare({
        name: 'reference: the same batch, the parsing handler vs a bare MSW handler that ignores the body',
        baseline: useBare,
        subject: useParsing,
        ops: 20,
      }),
      await compare({
        name: 'reference: the same batch, platform in process vs the bare MSW handler',
        baseline: useBare,
        subject: usePlatform,
        ops: 20,
        betweenRounds,
      }),
    ];
  } finally {
    msw.close();
  }
}

async function serverVersusRawNodeHttp(): Promise<Result> {
  // The server as the package exports it (dist/, see bench/built.ts).
  const { startServer: startBuiltServer } = await builtMockNode();
  const server = await startBuiltServer({ port: 0, seed: 'demo' });
  const token = server.platform.mintToken({ scopes: SCOPES }).access_token;
  const query = `?${new URLSearchParams(QUERY)}`;
  const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
  const text = await (await fetch(`${server.url}${PATH}${query}`, { headers })).text();
  const raw = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  const rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}${PATH}${query}`;
  try {
    return await compare({
      name: 'standalone platform server vs raw node:http handler (same JSON)',
      baseline: async () => (await fetch(rawUrl, { headers })).json(),
      subject: async () => (await fetch(`${server.url}${PATH}${query}`, { headers })).json(),
      target: 1.25,
    });
  } finally {
    raw.close();
    await server.close();
  }
}

/** The throughput case's own table: requests per second and p99 latency of each server. */
const throughputRows: ThroughputRow[] = [];

/** The groups of cases; `npm run bench -- <word>...` runs only the groups whose name has one of the words. */
const groups: ReadonlyArray<[string, () => Promise<Result | Result[]>]> = [
  ['sdk clients', clientsVersusFetch],
  ['sdk own work', clientsOwnWork],
  ['msw in-process', mockInProcessVersusBareMsw],
  ['batch change-log', changeLogBatchVersusBareMsw],
  ['server', serverVersusRawNodeHttp],
  ['layers', measureInMemory],
  [
    'throughput',
    async () => {
      const { results, rows } = await measureThroughput();
      throughputRows.push(...rows);
      return results;
    },
  ],
  ['memory', measureHeapPerProduct],
  ['size', measureSizes],
];
const words = process.argv.slice(2);
const chosen = groups.filter(([name]) => words.length === 0 || words.some((w) => name.includes(w)));
const results = new Map<string, Result[]>();
progress('speed: each case alternates baseline and subject in 31 rounds (a dot per round)\n');
for (const [name, run] of chosen) results.set(name, [await run()].flat());
const of = (...names: string[]) => names.flatMap((n) => results.get(n) ?? []);
const speed = of('sdk clients', 'sdk own work', 'msw in-process', 'batch change-log', 'server', 'layers', 'throughput');
const memory = of('memory');
const size = of('size');

report('Speed: median of the per-round ratios (spread: lowest-highest round)', speed);
if (throughputRows.length > 0) {
  console.log('\nThroughput at 32 connections (autocannon; medians of the rounds)');
  console.table(throughputRows);
}
report('Memory', memory);
report('Size (ratio = size / budget)', size);

const failed = [...speed, ...memory, ...size].filter(over);
if (failed.length > 0) {
  console.error(`\n${failed.length} over target: ${failed.map((r) => r.name).join('; ')}`);
  process.exitCode = 1;
}
