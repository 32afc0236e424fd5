/**
 * The SDK follows no redirect: a request may carry a secret in its body (a token grant's
 * `client_secret`), which fetch would post again to wherever a 307 points. Two node:http servers
 * on 127.0.0.1 (two ports, two origins): the platform's host, which answers a redirect, and
 * another, which must see nothing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  PlatformClient,
  type PlatformClientOptions,
  PlatformError,
  RedirectNotFollowedError,
} from '../../src/index.js';
import { READ, WRITE } from '../fixtures.js';
import { paths } from '../paths.js';
import { recordingLogger } from './helpers.js';

/** What a host answers a path: a redirect, or JSON. */
type Answer = { status: number; location: string } | { status: number; json: unknown };

/** A node:http server on a port of its own, answering by path, recording `METHOD path body` of what reaches it. */
interface Host {
  readonly origin: string;
  readonly received: string[];
  answers: Record<string, Answer>;
  close(): Promise<void>;
}

async function startHost(): Promise<Host> {
  const host: Host = {
    origin: '',
    received: [],
    answers: {},
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      host.received.push(`${req.method} ${path} ${body}`.trim());
      const answer = host.answers[path] ?? { status: 404, json: { code: 'not_found', message: 'Not found' } };
      if ('location' in answer)
        res.writeHead(answer.status, { location: answer.location, 'x-correlation-id': 'corr-redirect' }).end();
      else res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(host, { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  return host;
}

const CLIENT_SECRET = 'redirected-client-secret-value-0123';
const TOKEN = { access_token: 'a-token-of-the-host', token_type: 'bearer', expires_in: 3600 };

/** The platform's host, and another origin. */
let platform: Host;
let elsewhere: Host;

beforeAll(async () => {
  [platform, elsewhere] = await Promise.all([startHost(), startHost()]);
});
afterAll(async () => {
  await Promise.all([platform.close(), elsewhere.close()]);
});
beforeEach(() => {
  platform.received.length = 0;
  elsewhere.received.length = 0;
  platform.answers = {};
  // What the other origin would answer: a token and an empty list, so a call that followed succeeds.
  elsewhere.answers = {
    [paths.accessToken]: { status: 200, json: TOKEN },
    [paths.generateTicket]: { status: 200, json: { ticket: 'a-ticket-of-the-other-host' } },
    '/collect': { status: 200, json: { items: [], ...TOKEN } },
  };
});

/** A client of the platform's host; reads and the grant may be retried twice (a redirect never is). */
function client(options: Partial<PlatformClientOptions> = {}): PlatformClient {
  return new PlatformClient({
    environment: 'stage',
    hosts: { api: platform.origin, auth: platform.origin },
    auth: { accessToken: 'a-fixed-token' },
    maxRetries: 2,
    retryDelay: { initial: 1, max: 2 },
    ...options,
  });
}

const clientCredentials = { clientId: 'a-client', clientSecret: CLIENT_SECRET, scopes: [READ, WRITE] };

describe('a redirect is not followed: RedirectNotFollowedError naming where it was sent, nothing sent there', () => {
  test.each<{
    name: string;
    status: number;
    /** The path the platform's host redirects. */
    path: string;
    method: string;
    /** Whether the Location is another origin's (else a path on the platform's host). */
    away: boolean;
    options?: Partial<PlatformClientOptions>;
    send: (sdk: PlatformClient) => Promise<unknown>;
    /** What the platform's host answers beside the redirect. */
    answers?: Record<string, Answer>;
  }>([
    {
      name: 'the token grant (client_secret in its body) answered 307 to another origin',
      status: 307,
      path: paths.accessToken,
      method: 'POST',
      away: true,
      options: { auth: clientCredentials },
      send: (sdk) => sdk.products.list(),
    },
    {
      name: 'a ticket request (POST ticket) answered 308 to another origin',
      status: 308,
      path: paths.generateTicket,
      method: 'POST',
      away: true,
      options: { auth: clientCredentials },
      send: (sdk) =>
        sdk.authorization.generateTicket(
          { accountId: '0123456789abcdef01234567', clientId: 'shop' },
          { retryWrite: true },
        ),
      answers: { [paths.accessToken]: { status: 200, json: TOKEN } },
    },
    {
      name: 'a GET answered 302 to another origin',
      status: 302,
      path: paths.getProducts,
      method: 'GET',
      away: true,
      send: (sdk) => sdk.products.list(),
    },
    {
      name: 'a GET answered 301 to its own origin (a same-origin redirect is not followed either)',
      status: 301,
      path: paths.getProducts,
      method: 'GET',
      away: false,
      send: (sdk) => sdk.products.list(),
    },
    {
      name: 'a write answered 303, with retryWrite',
      status: 303,
      path: paths.updatePrices,
      method: 'POST',
      away: true,
      send: (sdk) =>
        sdk.prices.update(
          {
            package_integration_code: 'PREMIUM-DIGITAL',
            price_periods: [
              { subscription_type: 'recurring', payment_option: 'free', type: 'month', length: 1, price: 0 },
            ],
          },
          { retryWrite: true },
        ),
    },
    {
      name: 'a GET with a JSON body (endpoint 6, over node:http) answered 307 to another origin',
      status: 307,
      path: '/external/test/get-with-body',
      method: 'GET',
      away: true,
      send: (sdk) => sdk.request({ method: 'GET', path: '/external/test/get-with-body', body: { order_id: 'o-1' } }),
    },
  ])('$name', async ({ status, path, method, away, options, send, answers }) => {
    const target = away ? elsewhere.origin : platform.origin;
    platform.answers = {
      ...answers,
      // The query may carry a secret: the error never quotes it.
      [path]: { status, location: `${target}/collect?client_secret=from-the-location&state=1` },
    };
    const error = await send(client(options)).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RedirectNotFollowedError);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status, location: `${target}/collect`, attempts: 1, correlationId: 'corr-redirect' });
    // The client's token request, refused so, says it is that request (and that the call was not sent).
    const tokenRequest =
      path === paths.accessToken ? "The client's token request failed, so the call was not sent: " : '';
    expect((error as Error).message).toBe(
      `${tokenRequest}${method} ${platform.origin}${path} was redirected (${status}) to ${target}/collect: the SDK follows no redirect`,
    );
    for (const text of [(error as Error).message, String(error), JSON.stringify(error)]) {
      expect(text).not.toContain('from-the-location');
      expect(text).not.toContain(CLIENT_SECRET);
    }
    // Nothing reached the other origin (nor the Location on the same one); the redirect was not retried.
    expect(elsewhere.received).toEqual([]);
    expect(platform.received.filter((r) => r.includes('/collect'))).toEqual([]);
    expect(platform.received.filter((r) => r.startsWith(`${method} ${path}`))).toHaveLength(1);
  });

  test('the token grant answered 307: its body, client_secret and all, reached the platform host once and no other', async () => {
    platform.answers = { [paths.accessToken]: { status: 307, location: `${elsewhere.origin}${paths.accessToken}` } };
    await expect(client({ auth: clientCredentials }).products.list()).rejects.toBeInstanceOf(RedirectNotFollowedError);
    expect(platform.received).toEqual([expect.stringMatching(`^POST ${paths.accessToken} .*${CLIENT_SECRET}`)]);
    expect(elsewhere.received).toEqual([]);
  });

  test('a redirect is logged as the call failing, where it was sent and nothing more', async () => {
    platform.answers = {
      [paths.getProducts]: { status: 302, location: `${elsewhere.origin}/collect?code=secret-code` },
    };
    const logger = recordingLogger();
    await expect(client({ logger }).products.list()).rejects.toBeInstanceOf(RedirectNotFollowedError);
    const url = `${platform.origin}${paths.getProducts}`;
    expect(logger.lines.map((l) => `${l.level} ${l.message}`)).toEqual([
      `debug GET ${url}`,
      `error GET ${url} was redirected (302) to ${elsewhere.origin}/collect: the SDK follows no redirect`,
    ]);
    expect(JSON.stringify(logger.lines)).not.toContain('secret-code');
  });
});

describe('a Location that quotes what the request sent: left out of the error and its log line', () => {
  const ticket = 'Echoed-Ticket-Value-0001';
  /** A client secret with characters a path keeps (`/`, `+`) and one it encodes (a space). */
  const secret = 'a client secret/with+0001';
  test.each<[string, (origin: string) => string, string]>([
    ['the ticket in its path', (origin) => `${origin}/used/${ticket}`, '/used/[REDACTED]'],
    [
      'the ticket as a host name (which a URL writes in lower case)',
      () => `https://${ticket}.example.test/used`,
      'https://[REDACTED].example.test/used',
    ],
    [
      'the client secret in its path, as a path writes it',
      (origin) => `${origin}/used/a%20client%20secret/with+0001/x`,
      '/used/[REDACTED]/x',
    ],
  ])('%s', async (_, locationAt, shown) => {
    platform.answers = { [paths.accessToken]: { status: 302, location: locationAt(elsewhere.origin) } };
    const logger = recordingLogger();
    const error = await client({ logger, credentials: { clientId: 'a-client', clientSecret: secret } })
      .authorization.exchangeTicket({ ticket })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectNotFollowedError);
    const { location, message } = error as RedirectNotFollowedError;
    expect(location?.endsWith(shown)).toBe(true);
    expect(message).toContain(`to ${location}: the SDK follows no redirect`);
    const texts = [message, String(error), JSON.stringify(error), JSON.stringify(logger.lines)];
    for (const text of texts)
      for (const value of [ticket, ticket.toLowerCase(), secret, 'a%20client%20secret'])
        expect(text).not.toContain(value);
    expect(elsewhere.received).toEqual([]);
  });
});

describe('redirects a fetch hides or follows itself', () => {
  test("a browser's opaque redirect (type opaqueredirect, status 0, its Location hidden): RedirectNotFollowedError", async () => {
    const inits: (RequestInit | undefined)[] = [];
    // What a browser's fetch answers a redirect with `redirect: 'manual'`.
    const browserFetch: typeof fetch = async (_input, init) => {
      inits.push(init);
      return Object.defineProperties(new Response(null, { status: 200 }), {
        type: { value: 'opaqueredirect' },
        status: { value: 0 },
        ok: { value: false },
      });
    };
    const error = await client({ fetch: browserFetch })
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectNotFollowedError);
    expect(error).toMatchObject({ status: 0, location: undefined, attempts: 1 });
    expect((error as Error).message).toBe(
      `GET ${platform.origin}${paths.getProducts} was redirected to a location the runtime hides (an opaque redirect): the SDK follows no redirect`,
    );
    expect(inits).toMatchObject([{ redirect: 'manual' }]);
  });

  test("a fetch of the caller's that follows a redirect despite redirect: 'manual': its answer is not read", async () => {
    platform.answers = { [paths.getProducts]: { status: 302, location: `${elsewhere.origin}/collect?x=1` } };
    const following: typeof fetch = (input, init) => fetch(input, { ...init, redirect: 'follow' });
    const error = await client({ fetch: following })
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectNotFollowedError);
    expect(error).toMatchObject({ status: 0, location: `${elsewhere.origin}/collect` });
    expect((error as Error).message).toBe(
      `GET ${platform.origin}${paths.getProducts} was redirected to ${elsewhere.origin}/collect by the fetch in use, which ignored redirect 'manual': the SDK follows no redirect`,
    );
  });
});
