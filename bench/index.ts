/**
 * `npm run bench`: speed and memory, each against a baseline measured in the same run.
 *
 *   1. an SDK call vs raw fetch + JSON.parse, both against the same local platform server;
 *   2. the platform answering in process under MSW vs a bare one-handler MSW response;
 *   3. the standalone platform server vs a raw node:http handler returning the same JSON;
 *   4. the platform's heap per product record vs the same records as plain JSON objects.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { createHandlers, createPlatform, defaultHosts } from '../mock/index.js';
import { startServer } from '../mock/node/index.js';
import { PlatformClient } from '../src/index.js';
import { compare, type Result, report } from './harness.js';
import { measureHeapPerProduct } from './memory.js';

const PATH = '/external/api/v1/products';
const QUERY = { product_type: 'packages' } as const;
const SCOPES = ['/external/product/r'];

async function sdkVersusFetch(): Promise<Result> {
  const server = await startServer({ port: 0, seed: 'demo' });
  const token = server.platform.mintToken({ scopes: SCOPES }).access_token;
  const client = new PlatformClient({
    environment: 'stage',
    hosts: { api: server.url, auth: server.url },
    auth: { accessToken: token },
  });
  const url = `${server.url}${PATH}?${new URLSearchParams(QUERY)}`;
  const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
  try {
    return await compare({
      name: 'SDK products.list vs fetch + JSON.parse (same local server)',
      baseline: async () => JSON.parse(await (await fetch(url, { headers })).text()),
      subject: () => client.products.list(QUERY),
      target: 1.5,
    });
  } finally {
    await server.close();
  }
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
      target: 1.5,
    });
  } finally {
    msw.close();
  }
}

async function serverVersusRawNodeHttp(): Promise<Result> {
  const server = await startServer({ port: 0, seed: 'demo' });
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
      target: 1.5,
    });
  } finally {
    raw.close();
    await server.close();
  }
}

const results: Result[] = [];
for (const bench of [sdkVersusFetch, mockInProcessVersusBareMsw, serverVersusRawNodeHttp]) {
  results.push(await bench());
}
report(results);
await measureHeapPerProduct();
