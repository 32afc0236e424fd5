/**
 * Fair connections on the node:http adapter: at the cap (`maxConnections`), a new connection takes
 * the place of the oldest one that holds no request being answered, so sockets that say nothing
 * cannot keep a client out. Real sockets on loopback; the header and request timeouts are set far
 * beyond any run, so that only the cap decides who is served.
 */
import * as net from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createPlatform, type Platform } from '../../mock/index.js';
import { type RunningServer, startServer } from '../../mock/node/index.js';
import { until } from '../until.js';
import { rawRequest } from './raw-http.js';

/** Timeouts no run reaches: the idle sockets are closed by the cap, never by a timer. */
const NEVER = { headersTimeoutMs: 600_000, requestTimeoutMs: 600_000, keepAliveTimeoutMs: 600_000 };

/** A socket the test holds, with a promise of its closing. */
interface Held {
  readonly socket: net.Socket;
  readonly closed: Promise<void>;
  isClosed: boolean;
}

/** Opens a TCP connection that sends nothing (unless told to); resolves once it is connected. */
function hold(origin: string, send?: string): Promise<Held> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let held: Held | undefined;
    const closed = new Promise<void>((done) =>
      socket.once('close', () => {
        if (held) held.isClosed = true;
        done();
      }),
    );
    // A closed socket may say ECONNRESET: that is the closing this test waits for.
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      if (send !== undefined) socket.write(send);
      held = { socket, closed, isClosed: false };
      resolve(held);
    });
    socket.once('error', reject);
  });
}

/** Resolves once `n` of `sockets` are closed (the test's timeout bounds the wait). */
async function closedCount(sockets: readonly Held[], n: number): Promise<void> {
  await new Promise<void>((resolve) => {
    let count = 0;
    for (const s of sockets)
      s.closed.then(() => {
        if (++count === n) resolve();
      });
  });
}

describe('at the connection cap, idle sockets give way to a client with a request', () => {
  let server: RunningServer;
  const held: Held[] = [];
  // A server of its own per test: no connection of the one before is still closing.
  beforeEach(async () => {
    server = await startServer({ port: 0, ...NEVER });
  });
  afterEach(async () => {
    for (const s of held.splice(0)) s.socket.destroy();
    await server.close();
  });

  test('300 TCP connections that send nothing (cap 256): a new client is answered at once', async () => {
    for (let i = 0; i < 300; i++) held.push(await hold(server.url));
    // 44 over the cap were closed: the server has seen every one of the 300.
    await closedCount(held, 44);
    const answer = await rawRequest(server.url, '/nope');
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ code: 'not_found' });
    // The sockets that gave way were idle ones; most of the idle ones are still open.
    expect(held.filter((s) => !s.isClosed).length).toBeGreaterThanOrEqual(300 - 45 - 1);
  });

  test('sockets that sent part of their headers give way too, oldest first', async () => {
    for (let i = 0; i < 256; i++) held.push(await hold(server.url, 'GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
    const answer = await rawRequest(server.url, '/nope');
    expect(answer.status).toBe(404);
    // The oldest gave way for the client; the newest is still open.
    await held[0]?.closed;
    expect(held.at(-1)?.isClosed).toBe(false);
  });
});

describe('a connection whose request the platform is answering keeps its place', () => {
  let server: RunningServer;
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  let waiting = 0;
  const platform = createPlatform({ seed: 'demo' });
  // The same platform served through its Fetch `handle`, which waits for the gate on `/slow`.
  const slow: Platform = {
    ...platform,
    handle: async (request, info) => {
      if (new URL(request.url).pathname === '/slow') {
        waiting++;
        await gate;
      }
      return platform.handle(request, info);
    },
  };
  beforeAll(async () => {
    server = await startServer({ platform: slow, port: 0, maxConnections: 2, ...NEVER });
  });
  afterAll(() => server.close());

  test('two requests being answered (cap 2): a third connection is closed at once; both are answered', async () => {
    gate = new Promise((resolve) => {
      release = resolve;
    });
    waiting = 0;
    const answers = [rawRequest(server.url, '/slow'), rawRequest(server.url, '/slow')];
    // Both whole, in the platform's hands.
    await until(() => expect(waiting).toBe(2));
    const third = await hold(server.url);
    await third.closed;
    release();
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([404, 404]);
    expect((await rawRequest(server.url, '/nope')).status).toBe(404);
  });

  test.each(['POST', 'GET'])(
    'two %s requests with a body being answered (cap 2): a third connection is closed at once; both are answered',
    async (method) => {
      gate = new Promise((resolve) => {
        release = resolve;
      });
      waiting = 0;
      // The length said: node's client frames a GET's body only so.
      const options = { method, headers: { 'content-type': 'application/json', 'content-length': '2' }, body: '{}' };
      const answers = [rawRequest(server.url, '/slow', options), rawRequest(server.url, '/slow', options)];
      // Both read whole, in the platform's hands.
      await until(() => expect(waiting).toBe(2));
      const third = await hold(server.url);
      await third.closed;
      release();
      // Both answered as a request the gate does not hold is.
      const { status } = await rawRequest(server.url, '/nope', options);
      expect(status).toBeGreaterThanOrEqual(400);
      expect((await Promise.all(answers)).map((a) => a.status)).toEqual([status, status]);
    },
  );

  test('a kept-alive connection idle after its answer gives way to a new client (cap 2)', async () => {
    const first = await hold(server.url, 'GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const second = await hold(server.url, 'GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await Promise.all([answered(first), answered(second)]);
    expect((await rawRequest(server.url, '/nope')).status).toBe(404);
    await first.closed;
    expect(second.isClosed).toBe(false);
    second.socket.destroy();
  });
});

/** Resolves once the server has written the start of an answer on `held`. */
function answered(held: Held): Promise<void> {
  return new Promise((resolve) => {
    let received = '';
    held.socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) resolve();
    });
  });
}

describe('latency faults hold three quarters of the connections at most, in one namespace or in several', () => {
  let server: RunningServer | undefined;
  afterEach(() => server?.close());

  test('a namespace held by a fault gets three quarters of the connections at most (cap 8: 6); more to it are 503 busy at once; the root and another namespace are answered', async () => {
    const running = await startServer({ port: 0, seed: 'demo', maxConnections: 8, ...NEVER });
    server = running;
    const fault = await fetch(`${running.url}/_ns/a/__admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/nope', latency_ms: 600_000, times: 100 }),
    });
    expect(fault.status).toBe(201);
    // Eight requests to the faulted path of namespace a, each on a connection of its own.
    const answered: Awaited<ReturnType<typeof rawRequest>>[] = [];
    const toA = Array.from({ length: 8 }, () =>
      rawRequest(running.url, '/_ns/a/nope').then((a) => {
        answered.push(a);
        return a;
      }),
    );
    // Six are held by the fault; the two beyond the share are answered at once.
    await until(() => expect(answered).toHaveLength(2));
    expect(answered.map((a) => [a.status, (a.json as { code?: string }).code, a.headers['retry-after']])).toEqual([
      [503, 'busy', '1'],
      [503, 'busy', '1'],
    ]);
    // The six held do not keep the others out.
    expect((await rawRequest(running.url, '/__admin/clock')).status).toBe(200);
    expect((await rawRequest(running.url, '/_ns/b/__admin/clock')).status).toBe(200);
    expect(answered).toHaveLength(2);
    // Closing the server ends the six held.
    const held = Promise.allSettled(toA);
    server = undefined;
    await running.close();
    expect((await held).filter((r) => r.status === 'fulfilled' && r.value.status === 200)).toEqual([]);
  });

  /**
   * A server of 8 connections (a share of 6) whose namespaces a and b hold every request to `/nope`
   * for 10 minutes, and how many requests a namespace has in flight.
   */
  async function heldNamespaces() {
    const running = await startServer({ port: 0, seed: 'demo', maxConnections: 8, ...NEVER });
    server = running;
    for (const name of ['a', 'b']) {
      const fault = await fetch(`${running.url}/_ns/${name}/__admin/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: '/nope', latency_ms: 600_000, times: 100 }),
      });
      expect(fault.status).toBe(201);
    }
    const inFlight = async (name: string) => {
      const { items } = (await fetch(`${running.url}/__admin/namespaces`).then((r) => r.json())) as {
        items: { name: string; in_flight: number }[];
      };
      return items.find((n) => n.name === name)?.in_flight ?? 0;
    };
    return { running, inFlight };
  }

  test("requests whose clients went away stop counting in the share: a neighbour's abandoned held requests keep no other namespace to one request at a time", async () => {
    const { running, inFlight } = await heldNamespaces();
    // Six held in namespace a (the whole share), then their clients go away.
    const abandoned = await Promise.all(
      Array.from({ length: 6 }, () => hold(running.url, 'GET /_ns/a/nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')),
    );
    await until(async () => expect(await inFlight('a')).toBe(6));
    // Namespace b holds one: with the share full, a second to b is 503 busy.
    const inB = await hold(running.url, 'GET /_ns/b/nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await until(async () => expect(await inFlight('b')).toBe(1));
    expect((await rawRequest(running.url, '/_ns/b/__admin/clock')).status).toBe(503);
    // Once a's clients are gone, their requests (still held by the fault) no longer fill the share.
    for (const held of abandoned) held.socket.destroy();
    await until(async () => expect((await rawRequest(running.url, '/_ns/b/__admin/clock')).status).toBe(200));
    expect(await inFlight('a')).toBe(6);
    inB.socket.destroy();
  });

  test('two namespaces held by faults get three quarters of the connections together (cap 8: 6); beyond, a namespace with a request in flight is 503 busy; the root and a third namespace are answered', async () => {
    const { running, inFlight } = await heldNamespaces();
    const answered: Awaited<ReturnType<typeof rawRequest>>[] = [];
    const send = (name: string) =>
      rawRequest(running.url, `/_ns/${name}/nope`).then((a) => {
        answered.push(a);
        return a;
      });
    // Four held in namespace a, each on a connection of its own.
    const held = Array.from({ length: 4 }, () => send('a'));
    await until(async () => expect(await inFlight('a')).toBe(4));
    // Four to namespace b: two more are held (six in all), the two beyond are answered at once.
    held.push(...Array.from({ length: 4 }, () => send('b')));
    await until(() => expect(answered).toHaveLength(2));
    expect(answered.map((a) => [a.status, (a.json as { code?: string }).code, a.headers['retry-after']])).toEqual([
      [503, 'busy', '1'],
      [503, 'busy', '1'],
    ]);
    expect(await inFlight('b')).toBe(2);
    // The six held keep neither the root nor another namespace out.
    expect((await rawRequest(running.url, '/__admin/clock')).status).toBe(200);
    expect((await rawRequest(running.url, '/_ns/c/__admin/clock')).status).toBe(200);
    expect(answered).toHaveLength(2);
    const settled = Promise.allSettled(held);
    server = undefined;
    await running.close();
    expect((await settled).filter((r) => r.status === 'fulfilled' && r.value.status === 200)).toEqual([]);
  });
});
