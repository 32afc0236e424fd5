/**
 * `timeout` covers each attempt whole, its body included, and the SDK reads at most 16 MiB of an
 * answer. A node:http server that sends its headers at once and then trickles its body (a byte
 * every 200 ms for a minute), or floods it (300 MiB, as fast as the client reads). Nothing here
 * measures time: a test waits for the call to end and checks that the server's answer was cut.
 */
import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../src/attempts.js';
import {
  APIConnectionError,
  APITimeoutError,
  PlatformClient,
  type PlatformClientOptions,
  PlatformError,
  ResponseTooLargeError,
} from '../../src/index.js';
import { paths } from '../paths.js';
import { until } from '../until.js';

const MiB = 1024 * 1024;

/** One answer the server gave: how far it got. */
interface Sent {
  readonly path: string;
  /** Bytes of body written so far. */
  bytes: number;
  /** The whole answer was written. */
  finished: boolean;
  /** The connection closed (by the client, when `finished` is false). */
  closed: boolean;
}

/** How the server answers: a trickle of bytes, a flood, a body of exactly `bytes`, or never. */
type Behaviour =
  | { kind: 'trickle' }
  | { kind: 'flood'; status: number }
  | { kind: 'exactly'; bytes: number }
  | { kind: 'silent' };

let server: Server;
let origin = '';
let behaviour: Behaviour = { kind: 'trickle' };
const sent: Sent[] = [];

/** A byte every 200 ms for a minute: far longer than any timeout here. */
function trickle(res: ServerResponse, answer: Sent): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{');
  const timer = setInterval(() => {
    answer.bytes += 1;
    if (answer.bytes < 300) res.write(' ');
    else {
      clearInterval(timer);
      res.end('}');
    }
  }, 200);
  res.on('close', () => clearInterval(timer));
}

/** 300 MiB of spaces, a MiB at a time, each written once the client has taken the one before. */
function flood(res: ServerResponse, answer: Sent, status: number): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-correlation-id': 'corr-flood' });
  const chunk = Buffer.alloc(MiB, 0x20);
  const pump = (): void => {
    while (!res.destroyed && answer.bytes < 300 * MiB) {
      answer.bytes += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const answer: Sent = {
        path: new URL(req.url ?? '/', 'http://x').pathname,
        bytes: 0,
        finished: false,
        closed: false,
      };
      sent.push(answer);
      res.on('finish', () => {
        answer.finished = true;
      });
      res.on('close', () => {
        answer.closed = true;
      });
      if (behaviour.kind === 'trickle') trickle(res, answer);
      else if (behaviour.kind === 'flood') flood(res, answer, behaviour.status);
      else if (behaviour.kind === 'silent') return;
      else {
        // A products answer padded to exactly `bytes`.
        const head = '{"items":[],"pad":"';
        const body = `${head}${' '.repeat(behaviour.bytes - head.length - 2)}"}`;
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);
beforeEach(() => {
  sent.length = 0;
});

function client(options: Partial<PlatformClientOptions> = {}): PlatformClient {
  return new PlatformClient({
    environment: 'stage',
    hosts: { api: origin, auth: origin },
    auth: { accessToken: 'a-fixed-token' },
    maxRetries: 0,
    retryDelay: { initial: 1, max: 2 },
    ...options,
  });
}

/** The calls each rule is checked on: a GET through fetch, a write, and a GET with a body over node:http. */
const calls: [string, string, (sdk: PlatformClient) => Promise<unknown>][] = [
  ['a GET through fetch', paths.getProducts, (sdk) => sdk.products.list()],
  [
    'a POST (a write)',
    paths.updatePrices,
    (sdk) =>
      sdk.prices.update({
        package_integration_code: 'PREMIUM-DIGITAL',
        price_periods: [{ subscription_type: 'recurring', payment_option: 'free', type: 'month', length: 1, price: 0 }],
      }),
  ],
  [
    'a GET with a JSON body (endpoint 6, over node:http)',
    '/external/test/get-with-body',
    (sdk) => sdk.request({ method: 'GET', path: '/external/test/get-with-body', body: { order_id: 'o-1' } }),
  ],
];

/** Waits (real time, generously bounded) until `count` answers were sent and each was closed, and answers them. */
async function cut(count = 1): Promise<Sent[]> {
  await until(() => expect(sent.length === count && sent.every((a) => a.closed)).toBe(true));
  return sent;
}

describe('timeout covers each attempt whole, the body read included', () => {
  test.each(calls)(
    '%s: a 200 whose body trickles rejects with APITimeoutError, and the answer is cut off',
    async (_, path, call) => {
      behaviour = { kind: 'trickle' };
      const error = await call(client({ timeout: 500 })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APITimeoutError);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message).toMatch(/ got no (whole )?answer within 500 ms/);
      // The server was still writing its minute-long body when the call gave up, and the SDK closed it.
      expect(await cut()).toMatchObject([{ path, finished: false, closed: true }]);
    },
  );

  test("a body that never ends, from a fetch of the caller's that ignores the abort: APITimeoutError saying so, the body cancelled", async () => {
    let cancelled: unknown;
    // The answer's headers are in at once; its body sends one byte and then nothing, whatever the signal says.
    const stalling: typeof fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{'));
          },
          cancel(reason) {
            cancelled = reason ?? 'cancelled';
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    const error = await client({ fetch: stalling, timeout: 50 })
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toBe(
      `GET ${origin}${paths.getProducts} got no whole answer within 50 ms, the body of its 200 still arriving (1 attempt)`,
    );
    expect(cancelled).toBeDefined();
  });

  test.each(['before its answer', 'while its body arrives'])(
    "the caller's abort stops the call at once %s, through a fetch of the caller's that ignores the signal too",
    async (when) => {
      let fetched = false;
      let cancelled: unknown;
      // Nothing of what it does listens to the signal: it never answers, or its body stops after one byte.
      const ignoring: typeof fetch = () => {
        fetched = true;
        if (when === 'before its answer') return new Promise<Response>(() => undefined);
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{'));
          },
          cancel(reason) {
            cancelled = reason ?? 'cancelled';
          },
        });
        return Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }));
      };
      const controller = new AbortController();
      const reason = new Error('the user left');
      const call = client({ fetch: ignoring, timeout: 30_000 })
        .products.list({}, { signal: controller.signal })
        .then(
          () => 'answered',
          (e: unknown) => e,
        );
      await until(() => expect(fetched).toBe(true));
      controller.abort(reason);
      // Now, not at the 30 s timeout: the fetch never settles by itself and a timeout would end the
      // call with an APITimeoutError, so only the abort answers `reason` (a call that went on
      // waiting would hang past the test's own timeout).
      expect(await call).toBe(reason);
      if (when === 'while its body arrives') expect(cancelled).toBeDefined();
    },
  );

  test("an attempt given up at its timeout stops following the caller's signal, even when its fetch never settles", async () => {
    const never: typeof fetch = () => new Promise<Response>(() => undefined);
    const shutdown = new AbortController();
    const error = await client({ fetch: never, timeout: 50 })
      .products.list({}, { signal: shutdown.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    // Nothing of the attempt is left on a signal that may live as long as the process.
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
  });

  test("a fetch of the caller's that throws at once fails the attempt as a rejection does, and leaves no timer behind", async () => {
    const cause = new TypeError('no network here');
    const throwing = (() => {
      throw cause;
    }) as typeof fetch;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const error = await client({ fetch: throwing, timeout: 30_000 })
        .products.list()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(error).not.toBeInstanceOf(APITimeoutError);
      expect(error).toMatchObject({ attempts: 1, cause });
      // The attempt's 30 s timer is gone with it: nothing keeps the process up.
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  test('a read whose body is late is retried, as one whose headers are late, and fails after every attempt', async () => {
    behaviour = { kind: 'trickle' };
    const error = await client({ timeout: 300, maxRetries: 1 })
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toMatchObject({ attempts: 2 });
    expect(await cut(2)).toMatchObject([
      { path: paths.getProducts, finished: false },
      { path: paths.getProducts, finished: false },
    ]);
  });
});

/**
 * A full garbage collection, now: `gc` as `node --expose-gc` gives it, else the same function
 * exposed at run time (V8 gives it to the contexts made after the flag is set), so that the test
 * runs in every run of the suite, not only in one started with the flag.
 */
function collectGarbage(): void {
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

describe('a GET with a body (over node:http) is stopped on the wire after a garbage collection', () => {
  // Its Request is read and dropped before node:http sends it: what stops it must not live in it.
  const getWithBody = (sdk: PlatformClient, signal?: AbortSignal) =>
    sdk.request(
      { method: 'GET', path: '/external/test/get-with-body', body: { order_id: 'o-1' } },
      signal ? { signal } : {},
    );

  test('by its timeout, on its first attempt and on its retry (through ky)', async () => {
    behaviour = { kind: 'silent' };
    // Each attempt's timeout fires only when the test moves the clock on, after the collection: on
    // a real clock a slow machine could time out the attempt before it, and test nothing.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const answer = getWithBody(client({ timeout: 60_000, maxRetries: 1 })).catch((e: unknown) => e);
      await until(() => expect(sent).toHaveLength(1));
      collectGarbage();
      await vi.advanceTimersByTimeAsync(60_000);
      // The wait before the retry (a few ms) passes as the clock moves on by steps far shorter than
      // the retry's own timeout.
      await until(async () => {
        await vi.advanceTimersByTimeAsync(5);
        expect(sent).toHaveLength(2);
      });
      collectGarbage();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(await answer).toMatchObject({ name: 'APITimeoutError', attempts: 2 });
      // Both connections were closed by the client: the server never answered.
      expect(await cut(2)).toMatchObject([{ finished: false }, { finished: false }]);
    } finally {
      vi.useRealTimers();
    }
  });

  test("by the caller's abort", async () => {
    behaviour = { kind: 'silent' };
    const controller = new AbortController();
    const answer = getWithBody(client({ timeout: 30_000 }), controller.signal).catch((e: unknown) => e);
    await until(() => expect(sent).toHaveLength(1));
    collectGarbage();
    controller.abort(new Error('stopped by the caller'));
    expect(await answer).toMatchObject({ message: 'stopped by the caller' });
    expect(await cut(1)).toMatchObject([{ finished: false }]);
  });
});

describe('the SDK reads at most 16 MiB of an answer', () => {
  test.each(calls)(
    '%s: a 300 MiB answer rejects with ResponseTooLargeError, read no further',
    async (_, path, call) => {
      behaviour = { kind: 'flood', status: 200 };
      const error = await call(client({ timeout: 60_000 })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error).toBeInstanceOf(PlatformError);
      expect(error).toMatchObject({ status: 200, limit: MAX_ANSWER_BYTES, attempts: 1, correlationId: 'corr-flood' });
      expect((error as Error).message).toContain('answered 200 with a body over 16 MiB, the most the SDK reads');
      const [answer, ...more] = await cut();
      expect(more).toEqual([]);
      expect(answer).toMatchObject({ path, finished: false });
      // The server writes only as fast as the client reads: the client stopped long before 300 MiB.
      expect(answer?.bytes).toBeLessThan(100 * MiB);
    },
  );

  test('an error answer (500) over the limit too, and it is not retried', async () => {
    behaviour = { kind: 'flood', status: 500 };
    const error = await client({ timeout: 60_000, maxRetries: 2 })
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ status: 500, attempts: 1, correlationId: 'corr-flood' });
    expect(await cut()).toMatchObject([{ finished: false }]);
  });

  test('an answer of exactly 16 MiB is read whole', async () => {
    behaviour = { kind: 'exactly', bytes: MAX_ANSWER_BYTES };
    const { data, response } = await client({ timeout: 60_000 }).products.list().withResponse();
    expect(data).toEqual({ items: [] });
    expect(response.status).toBe(200);
    expect(sent).toMatchObject([{ finished: true }]);
  });
});

describe('with Node\u2019s own fetch, an attempt carries an AbortSignal once the client has seen a timeout', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** The client as a site makes it, with Node's own `fetch` (here the spy, in its place). */
  function nodeFetchClient(fetchSpy: typeof fetch, options: Partial<PlatformClientOptions> = {}): PlatformClient {
    vi.stubGlobal('fetch', fetchSpy);
    return client(options);
  }

  /** A fetch whose first answer comes only when the test says, recording whether each attempt carried a signal. */
  function recording() {
    const signals: (AbortSignal | undefined)[] = [];
    let release: (response: Response) => void = () => {};
    let cancelled = false;
    const late = new Promise<Response>((resolve) => {
      release = resolve;
    });
    const fetchSpy: typeof fetch = (input, init) => {
      // A retry comes as a Request (ky's), whose signal follows the attempt's.
      signals.push(input instanceof Request ? input.signal : (init?.signal ?? undefined));
      if (signals.length === 1) return late;
      return Promise.resolve(
        new Response('{"items":[]}', { status: 200, headers: { 'content-type': 'application/json' } }),
      );
    };
    const lateAnswer = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"items":'));
          },
          cancel() {
            cancelled = true;
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    return { fetchSpy, signals, release: () => release(lateAnswer()), wasCancelled: () => cancelled };
  }

  test('the first attempts go without one; the first timeout gives up the attempt, whose late answer is closed unread, and switches the client to signals', async () => {
    const { fetchSpy, signals, release, wasCancelled } = recording();
    // A generous timeout for the calls that are answered; 50 ms for the one that never is.
    const sdk = nodeFetchClient(fetchSpy, { timeout: 10_000 });
    const error = await sdk.products.list({}, { timeout: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toBe(`GET ${origin}${paths.getProducts} got no answer within 50 ms (1 attempt)`);
    expect(signals).toEqual([undefined]);
    expect((error as APITimeoutError).cause).toMatchObject({
      name: 'TimeoutError',
      message: `GET ${origin}${paths.getProducts} timed out after 50 ms`,
    });
    // The abandoned attempt's answer comes after all: its body is cancelled, never read.
    release();
    await until(() => expect(wasCancelled()).toBe(true));
    // From now on every attempt can be aborted when its time runs out.
    await expect(sdk.products.list()).resolves.toEqual({ items: [] });
    expect(signals[1]).toBeInstanceOf(AbortSignal);
  });

  test('a retry always carries one, and so does a call given a signal', async () => {
    const { fetchSpy, signals } = recording();
    const controller = new AbortController();
    // The first attempt is never answered; the retry is answered at once. The clock moves only when
    // the test moves it: past the first attempt's timeout, then by steps until the retry is sent,
    // never as far as the retry's own timeout.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const retried = nodeFetchClient(fetchSpy, { timeout: 2_000, maxRetries: 1 }).products.list();
      await until(() => expect(signals).toHaveLength(1));
      await vi.advanceTimersByTimeAsync(2_000);
      await until(async () => {
        await vi.advanceTimersByTimeAsync(5);
        expect(signals).toHaveLength(2);
      });
      await expect(retried).resolves.toEqual({ items: [] });
    } finally {
      vi.useRealTimers();
    }
    expect(signals[0]).toBeUndefined();
    expect(signals[1]).toBeInstanceOf(AbortSignal);
    const other = recording();
    const withSignal = nodeFetchClient(other.fetchSpy, { timeout: 10_000 });
    const answer = withSignal.products.list({}, { signal: controller.signal, timeout: 50 });
    await expect(answer).rejects.toBeInstanceOf(APITimeoutError);
    expect(other.signals[0]).toBeInstanceOf(AbortSignal);
    // That attempt was aborted on the wire: the client's next first attempt still goes without one.
    await expect(withSignal.products.list()).resolves.toEqual({ items: [] });
    expect(other.signals[1]).toBeUndefined();
  });

  test('a fetch of the caller\u2019s (its own pool, maybe a few connections per host, as a browser\u2019s) gets a signal on every attempt', async () => {
    const { fetchSpy, signals } = recording();
    const error = await client({ fetch: fetchSpy, timeout: 50 })
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(signals[0]).toBeInstanceOf(AbortSignal);
    expect(signals[0]?.aborted).toBe(true);
  });

  test('an answer without a body (204) is read as no content, not waited on', async () => {
    const noContent: typeof fetch = async () => new Response(null, { status: 204 });
    const { data, response } = await client({ fetch: noContent })
      .request({ method: 'POST', path: '/external/test/no-content' })
      .withResponse();
    expect(response.status).toBe(204);
    expect(data).toBeUndefined();
  });
});
