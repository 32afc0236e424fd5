/**
 * Pipelined requests on the node:http adapter: a connection's requests, with a body or without, are
 * answered one at a time, in order (the next once the answer before it has been taken by the
 * connection); a client that
 * sends many without reading its answers has its connection closed past `MAX_PIPELINED` waiting,
 * and an answer that is not read gets the request timeout, then its connection is closed. Real
 * sockets on loopback; asserted by behaviour (who is answered, what closes), never by timings.
 */
import type * as net from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createPlatform, type Platform } from '../../mock/index.js';
import { MAX_PIPELINED } from '../../mock/node/connections.js';
import { type RunningServer, startServer } from '../../mock/node/index.js';
import { until } from '../until.js';
import { closedByServer, openSocket, rawRequest } from './raw-http.js';

/** Timeouts no run reaches, where a test is not about them. */
const NEVER = { headersTimeoutMs: 600_000, requestTimeoutMs: 600_000, keepAliveTimeoutMs: 600_000 };

const MiB = 1024 * 1024;

/** A GET of `path` as the pipelining client writes it (its requests say so, for the platform to count them). */
const get = (path: string, close = false) =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-client: pipelining\r\n${close ? 'connection: close\r\n' : ''}\r\n`;

/** A request with a JSON body, as the pipelining client writes it. */
const withBody = (method: string, path: string, body: string, close = false) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-client: pipelining\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${close ? 'connection: close\r\n' : ''}\r\n${body}`;

/** The status line and the `message` of each answer in `text`, in the order they came. */
function answersIn(text: string): string[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3})[\s\S]*?\r\n\r\n(\{[\s\S]*?\})(?=HTTP\/1\.1 |$)/g)].map(
    ([, status, body]) => `${status} ${(JSON.parse(body ?? '{}') as { message?: string }).message}`,
  );
}

/**
 * The demo platform served through its Fetch `handle`, which counts the requests it is handed and
 * the most of the pipelining client's it answered at once, holds `/slow` until the gate opens, and
 * answers `/big` with 16 MiB, `/mib` with 1 MiB.
 */
function observedPlatform() {
  const platform = createPlatform({ seed: 'demo' });
  const seen = { handed: 0, answering: 0, pipelined: 0, most: 0 };
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const observed: Platform = {
    ...platform,
    handle: async (request, info) => {
      const pipelined = request.headers.get('x-client') === 'pipelining';
      seen.handed++;
      seen.answering++;
      if (pipelined) seen.most = Math.max(seen.most, ++seen.pipelined);
      try {
        const { pathname } = new URL(request.url);
        if (pathname === '/slow') await gate;
        if (pathname === '/big')
          return new Response('x'.repeat(16 * MiB), { headers: { 'content-type': 'text/plain' } });
        if (pathname === '/mib') return new Response('x'.repeat(MiB), { headers: { 'content-type': 'text/plain' } });
        return await platform.handle(request, info);
      } finally {
        seen.answering--;
        if (pipelined) seen.pipelined--;
      }
    },
  };
  return { platform: observed, seen, release: () => release() };
}

/**
 * A client that reads nothing on `socket`, and a promise of its closing by the server: a byte
 * written on a connection the server has closed is refused (reset), so a later write fails. An
 * empty line between requests is what HTTP/1.1 lets a client send and a server ignore.
 */
function unread(socket: net.Socket): { closed: () => Promise<void> } {
  socket.pause();
  let failed = false;
  socket.on('error', () => {
    failed = true;
  });
  return {
    closed: () =>
      until(() => {
        if (!failed && !socket.destroyed) socket.write('\r\n');
        expect(failed || socket.destroyed).toBe(true);
      }),
  };
}

describe('pipelined requests are answered one at a time, in order', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test('ten requests in one write: each reaches the platform once the answer before is sent, and all are answered in order', async () => {
    const observed = observedPlatform();
    const running = await startServer({ platform: observed.platform, port: 0, ...NEVER });
    server = running;
    const socket = await openSocket(running.url);
    const paths = ['/slow', ...Array.from({ length: 8 }, (_, i) => `/nope-${i}`)];
    socket.write(paths.map((p) => get(p)).join('') + get('/nope-last', true));
    // The first is held: nothing sent behind it reaches the platform meanwhile.
    await until(() => expect(observed.seen.handed).toBe(1));
    expect((await rawRequest(running.url, '/nope-other')).status).toBe(404);
    expect(observed.seen.handed).toBe(2);
    observed.release();
    const text = await closedByServer(socket);
    expect(answersIn(text)).toEqual([
      ...paths.map((p) => `404 No route for GET ${p}`),
      '404 No route for GET /nope-last',
    ]);
    // The connection's requests never overlapped.
    expect(observed.seen.most).toBe(1);
  });

  test('a request with a body waits behind a held answer, as any other (its body read in its turn), and is answered in its turn', async () => {
    const observed = observedPlatform();
    const running = await startServer({ platform: observed.platform, port: 0, ...NEVER });
    server = running;
    const socket = await openSocket(running.url);
    // Far over a stream's buffer: it waits unread, and is read once its turn comes.
    const body = JSON.stringify({ pad: 'x'.repeat(512 * 1024) });
    socket.write(get('/slow') + withBody('POST', '/nope-post', body) + get('/nope-last', true));
    await until(() => expect(observed.seen.handed).toBe(1));
    // Another client is answered meanwhile; the POST behind /slow has not reached the platform.
    expect((await rawRequest(running.url, '/nope-other')).status).toBe(404);
    expect(observed.seen.handed).toBe(2);
    observed.release();
    const text = await closedByServer(socket);
    expect(answersIn(text)).toEqual([
      '404 No route for GET /slow',
      '404 No route for POST /nope-post',
      '404 No route for GET /nope-last',
    ]);
    expect(observed.seen.most).toBe(1);
  });

  test('pipelined POSTs with bodies on one connection are answered one at a time, in order', async () => {
    const observed = observedPlatform();
    const running = await startServer({ platform: observed.platform, port: 0, ...NEVER });
    server = running;
    const socket = await openSocket(running.url);
    const posts = Array.from({ length: 8 }, (_, i) => withBody('POST', `/nope-${i}`, JSON.stringify({ i })));
    socket.write(withBody('POST', '/slow', '{}') + posts.join('') + withBody('POST', '/nope-last', '{}', true));
    await until(() => expect(observed.seen.handed).toBe(1));
    observed.release();
    const text = await closedByServer(socket);
    expect(answersIn(text)).toEqual([
      '404 No route for POST /slow',
      ...posts.map((_, i) => `404 No route for POST /nope-${i}`),
      '404 No route for POST /nope-last',
    ]);
    expect(observed.seen.most).toBe(1);
    expect(observed.seen.handed).toBe(10);
  });

  test('on the real platform, behind a latency fault, pipelined requests are answered in order and the server goes on', async () => {
    const running = await startServer({ port: 0, seed: 'demo', ...NEVER });
    server = running;
    const fault = await fetch(`${running.url}/__admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/nope-0', latency_ms: 50, times: 1 }),
    });
    expect(fault.status).toBe(201);
    const socket = await openSocket(running.url);
    socket.write(['/nope-0', '/nope-1', '/nope-2'].map((p) => get(p)).join('') + get('/nope-3', true));
    const text = await closedByServer(socket);
    expect(answersIn(text)).toEqual([0, 1, 2, 3].map((i) => `404 No route for GET /nope-${i}`));
  });
});

describe('a client that pipelines without reading holds one answer at a time, and not for ever', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** The observed platform on a server whose request timeout (500 ms) a test waits out, and a client that reads nothing. */
  async function unreadOnShortTimeout() {
    const observed = observedPlatform();
    const running = await startServer({
      platform: observed.platform,
      port: 0,
      requestTimeoutMs: 500,
      keepAliveTimeoutMs: 600_000,
    });
    server = running;
    const socket = await openSocket(running.url);
    return { observed, running, socket, client: unread(socket) };
  }

  /** 400 requests for `/openapi.json` (100 kB an answer), each without a body or with a 2-byte JSON one. */
  const floods = [
    ['without a body', get('/openapi.json')],
    ['with a body', withBody('GET', '/openapi.json', '{}')],
  ] as const;

  test.each(floods)(
    `more than ${MAX_PIPELINED} requests waiting behind an answer (%s): the connection is closed, none of them served; others are answered`,
    async (_, request) => {
      const observed = observedPlatform();
      const running = await startServer({ platform: observed.platform, port: 0, ...NEVER });
      server = running;
      const socket = await openSocket(running.url);
      const closed = closedByServer(socket);
      socket.write(get('/slow') + request.repeat(400));
      await closed;
      expect((await rawRequest(running.url, '/openapi.json')).status).toBe(200);
      observed.release();
      await until(() => expect(observed.seen.answering).toBe(0));
      // The held one and the other client's: none of the 400 behind it.
      expect(observed.seen.handed).toBe(2);
    },
  );

  test.each(floods)(
    '400 requests of a 100 kB answer (%s), never read: one answer at a time is made and not taken, the connection is closed, and another client is answered meanwhile',
    async (_, request) => {
      // An answer is taken once its last byte is in the connection's buffers (its log line is written then).
      let taken = 0;
      const running = await startServer({
        port: 0,
        seed: 'demo',
        requestTimeoutMs: 2_000,
        keepAliveTimeoutMs: 600_000,
        onRequest: (line) => {
          if (line.path === '/openapi.json') taken++;
        },
      });
      server = running;
      const socket = await openSocket(running.url);
      const client = unread(socket);
      socket.write(request.repeat(400));
      expect((await rawRequest(running.url, '/__admin/clock')).status).toBe(200);
      await client.closed();
      // Made by the platform: as many as the connection's buffers took (the system's, whatever
      // their size) and one more at most, which the server held; never one per request sent.
      const made = running.platform.requests.list().filter((e) => e.path === '/openapi.json').length;
      expect(made).toBeGreaterThanOrEqual(1);
      expect(made - taken).toBeLessThanOrEqual(1);
      expect((await rawRequest(running.url, '/__admin/clock')).status).toBe(200);
    },
  );

  test('an answer the client does not read (16 MiB, more than the connection takes at once): its connection is closed after the request timeout', async () => {
    const { observed, running, socket, client } = await unreadOnShortTimeout();
    socket.write(get('/big'));
    await until(() => expect(observed.seen.handed).toBe(1));
    // Another client is answered while the answer waits to be read.
    expect((await rawRequest(running.url, '/nope')).status).toBe(404);
    await client.closed();
  });

  test(`${MAX_PIPELINED} requests of 1 MiB answers, never read: the answer the connection cannot take waits the request timeout, then the connection is closed`, async () => {
    const { observed, running, socket, client } = await unreadOnShortTimeout();
    socket.write(get('/mib').repeat(MAX_PIPELINED));
    await client.closed();
    // Made one at a time: never more than one of them at once.
    expect(observed.seen.most).toBe(1);
    expect((await rawRequest(running.url, '/nope')).status).toBe(404);
  });

  test.each([
    ['timeouts no run reaches', {}],
    // A timer takes no more than 2^31 - 1 ms: Node makes a longer one 1 ms, which closed every large answer.
    ['a request timeout longer than a timer holds', { requestTimeoutMs: 2 ** 31 + 5 }],
  ])('a client that reads a large answer gets it whole, with %s', async (_, timeouts) => {
    const observed = observedPlatform();
    const running = await startServer({ platform: observed.platform, port: 0, ...NEVER, ...timeouts });
    server = running;
    const answer = await rawRequest(running.url, '/big');
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBe(16 * MiB);
  });
});
