/**
 * What one request may cost: the body size limit (413 `payload_too_large`, refused while reading,
 * and before reading when `Content-Length` says so), the JSON nesting limit (400
 * `invalid_parameter`, field `body`, before anything parses or walks the body), and the node:http
 * adapter's timeouts and connection cap against slow clients. Tested by behaviour: the status, that
 * the platform goes on answering, that nothing changed; never by how long anything took.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { jsonDepthExceeds, MAX_BODY_BYTES_LIMIT } from '../../mock/core/limits.js';
import { createPlatform, demoCredentials } from '../../mock/index.js';
import { type RunningServer, startServer } from '../../mock/node/index.js';
import { GetProductsResponse } from '../../src/schemas/products.js';
import { until } from '../until.js';
import { ADAPTERS, entryOf, expectError, expectOk, expectUnchanged, paths, READ, useAdapter } from './harness.js';
import { closedByServer, openSocket, rawRequest, streamedRequest } from './raw-http.js';

const MiB = 1024 * 1024;

/**
 * Sends the head of a request to the token endpoint with `Expect: 100-continue` and a length, and
 * none of its body; resolves with all the server wrote (a `100 Continue` first, if it sent one)
 * once it closed the connection.
 */
async function headExpectingContinue(origin: string, length: number): Promise<string> {
  const socket = await openSocket(origin);
  const closed = closedByServer(socket);
  socket.write(
    `POST ${paths.accessToken} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`,
  );
  return closed;
}

/** A token request body of exactly `size` bytes (JSON, padded in a string). */
function bodyOfSize(size: number): string {
  const head = '{"grant_type":"none","pad":"';
  const tail = '"}';
  return head + 'x'.repeat(size - head.length - tail.length) + tail;
}

/** `depth` arrays nested in a JSON object member. */
function nested(depth: number, extra = ''): string {
  return `{"grant_type":"none",${extra}"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

describe.each(ADAPTERS)('the body size limit through %s', (kind) => {
  const h = useAdapter(kind, { maxBodyBytes: 4096 });

  test('a body one byte over maxBodyBytes: 413 payload_too_large, field body; nothing changes; the next request is answered', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.accessToken, {
        host: 'auth',
        body: bodyOfSize(4097),
        headers: { 'content-type': 'application/json' },
      }),
    );
    const body = expectError(answer, 413, 'payload_too_large', 'body');
    expect(body.message).toBe('Body exceeds the limit of 4096 bytes');
    expect(entryOf(h.platform, answer)).toMatchObject({ status: 413, body: null });
    expectOk(await h.call(paths.getProducts, { token: h.token([READ]) }), GetProductsResponse);
  });

  test('a body of exactly maxBodyBytes is read (and judged by its content)', async () => {
    const answer = await h.call(paths.accessToken, {
      host: 'auth',
      body: bodyOfSize(4096),
      headers: { 'content-type': 'application/json' },
    });
    expectError(answer, 400, 'unknown_parameter', 'pad');
  });

  test('the limit counts bytes, not characters: 2048 two-byte characters are over 4096 bytes; nothing changes', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.accessToken, {
        host: 'auth',
        body: `{"pad":"${'é'.repeat(2048)}"}`,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expectError(answer, 413, 'payload_too_large', 'body');
  });

  test('the limit holds on /__admin too', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      h.call('/__admin/state', { method: 'PUT', body: bodyOfSize(5000) }),
    );
    expectError(answer, 413, 'payload_too_large', 'body');
  });
});

describe.each(ADAPTERS)('the default body size limit (1 MiB) through %s', (kind) => {
  const h = useAdapter(kind);

  test('1 MiB + 1 byte: 413, nothing changes; exactly 1 MiB: read', async () => {
    const over = await expectUnchanged(h.platform, () =>
      h.call('/nope', { body: bodyOfSize(MiB + 1), headers: { 'content-type': 'application/json' } }),
    );
    expectError(over, 413, 'payload_too_large', 'body');
    const at = await h.call('/nope', { body: bodyOfSize(MiB), headers: { 'content-type': 'application/json' } });
    expectError(at, 404, 'not_found');
  });
});

describe('the in-process platform (platform.handle, behind MSW) reads a body chunk by chunk', () => {
  /** A body stream that never ends; counts what was pulled and whether it was cancelled. */
  function endless() {
    const seen = { bytes: 0, cancelled: false };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        seen.bytes += 1024;
        controller.enqueue(new Uint8Array(1024).fill(0x61));
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return { stream, seen };
  }
  const post = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    new Request(`https://auth.platform.test${paths.accessToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      duplex: 'half',
    } as RequestInit);

  test('an endless body is read up to the limit, then cancelled: 413', async () => {
    const platform = createPlatform({ maxBodyBytes: 64 * 1024 });
    const { stream, seen } = endless();
    const answer = await platform.handle(post(stream));
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as { code: string }).code).toBe('payload_too_large');
    expect(seen.cancelled).toBe(true);
    expect(seen.bytes).toBeLessThanOrEqual(64 * 1024 + 1024 * 4);
  });

  test('a Content-Length over the limit is refused before any of the body is read', async () => {
    const platform = createPlatform({ maxBodyBytes: 64 * 1024 });
    const { stream, seen } = endless();
    const answer = await platform.handle(post(stream, { 'content-length': String(10 * MiB) }));
    expect(answer.status).toBe(413);
    expect(seen.bytes).toBeLessThanOrEqual(1024 * 2);
  });

  test('a body stream that fails while read: 400 malformed_request as JSON, journaled; nothing changes', async () => {
    const platform = createPlatform();
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('the client went away'));
      },
    });
    const answer = await expectUnchanged(platform, () => platform.handle(post(failing)));
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(await answer.json()).toMatchObject({
      code: 'malformed_request',
      field: 'body',
      message: 'The request body could not be read',
      api_correlation_id: answer.headers.get('x-correlation-id'),
    });
    expect(entryOf(platform, answer)).toMatchObject({
      method: 'POST',
      path: paths.accessToken,
      status: 400,
      body: null,
    });
  });

  test('maxBodyBytes must be an integer from 1 to 256 MiB (a body is decoded into one string)', async () => {
    for (const maxBodyBytes of [0, -1, 1.5, Number.NaN, MAX_BODY_BYTES_LIMIT + 1, 700_000_000]) {
      expect(() => createPlatform({ maxBodyBytes })).toThrowError(
        expect.objectContaining({
          field: 'maxBodyBytes',
          message: 'Parameter must be an integer from 1 to 268435456 (256 MiB)',
        }),
      );
    }
    expect(MAX_BODY_BYTES_LIMIT).toBe(256 * MiB);
    // Both ends are taken, each as the limit in force. At 1: a body of 1 byte is read (and refused
    // as no JSON), one of 2 is over the limit.
    const smallest = createPlatform({ maxBodyBytes: 1 });
    const oneByte = await smallest.handle(post(new Response('x').body as ReadableStream<Uint8Array>));
    expect(oneByte.status).toBe(400);
    expect(await oneByte.json()).toMatchObject({ code: 'json_parser_error' });
    const twoBytes = await smallest.handle(post(new Response('xx').body as ReadableStream<Uint8Array>));
    expect(await twoBytes.json()).toMatchObject({
      code: 'payload_too_large',
      message: 'Body exceeds the limit of 1 bytes',
    });
    // At 256 MiB: a Content-Length one byte over it is refused, naming that limit.
    const largest = createPlatform({ maxBodyBytes: MAX_BODY_BYTES_LIMIT });
    const over = await largest.handle(
      post(new Response('{}').body as ReadableStream<Uint8Array>, { 'content-length': String(256 * MiB + 1) }),
    );
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({
      code: 'payload_too_large',
      message: `Body exceeds the limit of ${256 * MiB} bytes`,
    });
  });
});

describe('the node:http adapter and large bodies', () => {
  const h = useAdapter('http', { maxBodyBytes: 64 * 1024 });

  test('Content-Length over the limit: 413 at once, before the body is sent; nothing changes', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      rawRequest(h.origin(), paths.accessToken, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(10 * MiB) },
        body: '{"grant_type":',
        keepOpen: true,
      }),
    );
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ code: 'payload_too_large', field: 'body' });
  });

  test('Expect: 100-continue with a length over the limit: 413 instead of 100 Continue; nothing changes', async () => {
    const reply = await expectUnchanged(h.platform, () => headExpectingContinue(h.origin(), 10 * MiB));
    expect(reply).toMatch(/^HTTP\/1\.1 413 [\s\S]*"code":"payload_too_large","field":"body"/);
    expect(reply).not.toContain('100 Continue');
  });

  test('a chunked upload that goes over the limit (8 MiB): 413, nothing changes, and the platform answers the next request', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      streamedRequest(h.origin(), paths.accessToken, 8 * MiB, { 'content-type': 'application/json' }),
    );
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ code: 'payload_too_large', field: 'body' });
    expectOk(await h.call(paths.getProducts, { token: h.token([READ]) }), GetProductsResponse);
  });

  test('an answer carries its Content-Length, not chunked framing', async () => {
    const answer = await rawRequest(h.origin(), paths.getProducts, {
      headers: { authorization: `Bearer ${h.token([READ])}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['transfer-encoding']).toBeUndefined();
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.text)));
  });

  test("node:http's own refusals answer the platform's JSON error: headers over 16 KiB are 431 headers_too_large", async () => {
    const answer = await expectUnchanged(h.platform, () =>
      rawRequest(h.origin(), `${paths.getProducts}?id=${'x'.repeat(20_000)}`),
    );
    expect(answer.status).toBe(431);
    expect(answer.json).toMatchObject({ code: 'headers_too_large', field: 'headers', message: expect.any(String) });
    expectOk(await h.call(paths.getProducts, { token: h.token([READ]) }), GetProductsResponse);
  });

  test('a request that is not HTTP/1.1 at all: 400 malformed_request, as JSON', async () => {
    const socket = await openSocket(h.origin());
    socket.write('NOT HTTP AT ALL\r\n\r\n');
    const text = await closedByServer(socket);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'malformed_request' });
  });

  test('a body read whole that cannot be decoded (longer than a string can be): 400 malformed_request, journaled; nothing changes; the server goes on', async () => {
    // A body over V8's longest string (about 512 Mi characters) made Buffer#toString throw in a
    // listener, which ended the process; one of a size no other buffer of this test has stands in.
    const size = 65_521;
    const decode = Buffer.prototype.toString;
    const spy = vi.spyOn(Buffer.prototype, 'toString').mockImplementation(function (this: Buffer, ...args) {
      if (this.length === size)
        throw Object.assign(new Error('Cannot create a string longer than 0x1fffffe8 characters'), {
          code: 'ERR_STRING_TOO_LONG',
        });
      return decode.apply(this, args);
    });
    try {
      const answer = await expectUnchanged(h.platform, () =>
        rawRequest(h.origin(), paths.accessToken, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: bodyOfSize(size),
        }),
      );
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({
        code: 'malformed_request',
        field: 'body',
        message: 'The request body could not be read',
      });
      const id = (answer.json as { api_correlation_id: string }).api_correlation_id;
      expect(h.platform.requests.list().find((e) => e.correlation_id === id)).toMatchObject({
        status: 400,
        body: null,
      });
    } finally {
      spy.mockRestore();
    }
    expectOk(await h.call(paths.getProducts, { token: h.token([READ]) }), GetProductsResponse);
  });

  test('a client that goes away in the middle of its body ends nothing but its request', async () => {
    const socket = await openSocket(h.origin());
    socket.write(`POST ${paths.accessToken} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{"grant`);
    socket.destroy();
    expectOk(await h.call(paths.getProducts, { token: h.token([READ]) }), GetProductsResponse);
  });
});

describe('the bodies held together: maxHeldBodyBytes (the node:http adapter)', () => {
  const KiB = 1024;
  const platform = createPlatform({ seed: 'demo' });
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ platform, port: 0, maxHeldBodyBytes: 256 * KiB });
  });
  afterAll(() => server.close());

  /**
   * A connection that declares a body of `size` bytes and sends its first bytes only, holding
   * `size` of the budget; resolved once the server has read its head (a request on another
   * connection, sent after it, has been answered).
   */
  async function heldBody(size: number) {
    const socket = await openSocket(server.url);
    const answer = closedByServer(socket);
    socket.write(
      `POST ${paths.accessToken} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
    );
    const body = bodyOfSize(size);
    socket.write(body.slice(0, 100));
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    return {
      /** Sends the rest of the body and closes the connection; resolves with the answer's raw text. */
      finish: async () => {
        socket.end(body.slice(100));
        return answer;
      },
    };
  }

  const grant = (size: number, headers: Record<string, string> = {}) =>
    rawRequest(server.url, paths.accessToken, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: bodyOfSize(size),
    });

  test('a body that would take them over: 503 busy, field body, Retry-After: 1, its connection closed; nothing changes; once the other is answered, the same body is read', async () => {
    const held = await heldBody(200 * KiB);
    const answer = await expectUnchanged(platform, () => grant(100 * KiB));
    expect(answer.status).toBe(503);
    expect(answer.json).toMatchObject({
      code: 'busy',
      field: 'body',
      message:
        'The request bodies the server holds at once, this one with them, would pass 262144 bytes (--max-held-body-bytes): try again',
    });
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.headers.connection).toBe('close');
    const id = (answer.json as { api_correlation_id: string }).api_correlation_id;
    expect(platform.requests.list().find((e) => e.correlation_id === id)).toMatchObject({ status: 503, body: null });

    // The held one is read whole and answered as any other (its padding is not a parameter of the grant).
    expect(await held.finish()).toMatch(/^HTTP\/1\.1 400 [\s\S]*"code":"unknown_parameter"/);
    const again = await grant(100 * KiB);
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ code: 'unknown_parameter' });
  });

  test('a body of 64 KiB at most is read whatever the others hold', async () => {
    const held = await heldBody(250 * KiB);
    const answer = await rawRequest(server.url, paths.accessToken, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'none',
        client_id: demoCredentials.clientId,
        client_secret: demoCredentials.clientSecret,
      }),
    });
    expect(answer.status).toBe(200);
    const small = await grant(64 * KiB);
    expect(small.status).toBe(400);
    expect(small.json).toMatchObject({ code: 'unknown_parameter' });
    expect((await expectUnchanged(platform, () => grant(64 * KiB + 1))).status).toBe(503);
    await held.finish();
  });

  test('a body sent without a length meets the budget as it is read: 503 busy; nothing changes', async () => {
    const held = await heldBody(200 * KiB);
    const answer = await expectUnchanged(platform, () =>
      streamedRequest(server.url, paths.accessToken, 512 * KiB, { 'content-type': 'application/json' }, 16 * KiB),
    );
    expect(answer.status).toBe(503);
    expect(answer.json).toMatchObject({ code: 'busy', field: 'body' });
    await held.finish();
  });

  test('Expect: 100-continue with a length over what the others leave: 503 instead of 100 Continue; nothing changes', async () => {
    const held = await heldBody(200 * KiB);
    const reply = await expectUnchanged(platform, () => headExpectingContinue(server.url, 100 * KiB));
    expect(reply).toMatch(/^HTTP\/1\.1 503 [\s\S]*"code":"busy","field":"body"/);
    expect(reply).not.toContain('100 Continue');
    await held.finish();
  });

  test('a body whose client goes away gives its share back: the next body is read', async () => {
    const socket = await openSocket(server.url);
    const closed = closedByServer(socket);
    socket.write(
      `POST ${paths.accessToken} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${200 * KiB}\r\n\r\n{"grant`,
    );
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    // Held: another body that would pass the budget beside it is refused.
    expect((await grant(100 * KiB)).status).toBe(503);
    socket.destroy();
    await closed;
    // The server sees the connection go in its own time (no wait on the machine's speed): the
    // share comes back, or the test's timeout fails it.
    const answer = await until(async () => {
      const a = await grant(100 * KiB);
      expect(a.status).not.toBe(503);
      return a;
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: 'unknown_parameter' });
  });

  test('with no other body held, one is read up to its own limit, over the budget', async () => {
    const answer = await grant(900 * KiB);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: 'unknown_parameter' });
  });
});

describe.each(ADAPTERS)('JSON nesting depth through %s', (kind) => {
  const h = useAdapter(kind);
  const post = (body: string, path: string = paths.accessToken) =>
    h.call(path, { host: 'auth', body, headers: { 'content-type': 'application/json' } });

  test('65 levels: 400 invalid_parameter, field body; nothing changes', async () => {
    const answer = await expectUnchanged(h.platform, () => post(nested(64)));
    const body = expectError(answer, 400, 'invalid_parameter', 'body');
    expect(body.message).toBe('Body must not nest objects and arrays deeper than 64 levels');
  });

  test('64 levels are parsed (and judged by their content)', async () => {
    expectError(await post(nested(63)), 400, 'unknown_parameter', 'a');
  });

  test('brackets inside strings do not count', async () => {
    expectError(await post(`{"grant_type":"none","a":"${'['.repeat(500)}"}`), 400, 'unknown_parameter', 'a');
  });

  test('100,000 levels beside a secret: refused, and the journal keeps the secret out', async () => {
    const secret = 'deep-secret-0123456789';
    const answer = await expectUnchanged(h.platform, () => post(nested(100_000, `"client_secret":"${secret}",`)));
    expectError(answer, 400, 'invalid_parameter', 'body');
    expect(JSON.stringify(h.platform.requests.list())).not.toContain(secret);
    expectOk(await h.call(paths.getProducts, { token: h.token([READ]) }), GetProductsResponse);
  });

  test.each([
    ['an unknown path', '/nope', {}],
    ['a bearer route, with no token', paths.getProducts, {}],
    ['a bearer route, with a wrong token', paths.getProducts, { authorization: 'Bearer not-a-token' }],
    ['a JSON type with a suffix', '/nope', { 'content-type': 'application/merge-patch+json' }],
  ])(
    'on %s: 400 invalid_parameter, field body, before any route, token or journal; nothing changes',
    async (_, path, headers) => {
      const secret = 'deep-secret-on-any-path-0123456789';
      const answer = await expectUnchanged(h.platform, () =>
        h.call(path, {
          method: 'POST',
          body: nested(100, `"client_secret":"${secret}",`),
          headers: { 'content-type': 'application/json', ...headers },
        }),
      );
      expectError(answer, 400, 'invalid_parameter', 'body');
      expect(entryOf(h.platform, answer)).toMatchObject({ path, status: 400, body: null });
      expect(JSON.stringify(h.platform.requests.list())).not.toContain(secret);
    },
  );

  test('a body with no Content-Type at all is not scanned: an unknown path is still 404', async () => {
    // Bytes, unlike a string, make fetch send no Content-Type.
    const answer = await fetch(`${h.origin()}/nope`, { method: 'POST', body: new TextEncoder().encode(nested(100)) });
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { code: string }).code).toBe('not_found');
  });

  test.each(['text/plain', 'text/x+json', 'application/octet-stream', 'application/jsonl'])(
    'a body not declared JSON (%s) is not scanned: an unknown path is still 404',
    async (contentType) => {
      const answer = await h.call('/nope', {
        method: 'POST',
        body: nested(100),
        headers: { 'content-type': contentType },
      });
      expectError(answer, 404, 'not_found');
    },
  );

  test('the admin API refuses a deep body the same way', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      h.call('/__admin/tokens', { body: nested(200), headers: { 'content-type': 'application/json' } }),
    );
    expectError(answer, 400, 'invalid_parameter', 'body');
  });
});

describe('slow clients: the node:http adapter times them out', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      requestTimeoutMs: 1_000,
      headersTimeoutMs: 500,
      keepAliveTimeoutMs: 300,
    });
  });
  afterAll(() => server.close());

  /** Sends one byte every 50 ms until the server closes the socket. */
  function trickle(socket: import('node:net').Socket, byte = 'a'): () => void {
    const timer = setInterval(() => {
      if (!socket.destroyed && socket.writable) socket.write(byte);
    }, 50);
    return () => clearInterval(timer);
  }

  test('headers that never end: the connection is closed (408); other clients are answered meanwhile', async () => {
    const socket = await openSocket(server.url);
    socket.write('GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const stop = trickle(socket);
    const closed = closedByServer(socket);
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    const received = await closed;
    stop();
    expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
  });

  test('a body that trickles: the connection is closed', async () => {
    const socket = await openSocket(server.url);
    socket.write(`POST ${paths.accessToken} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n`);
    const stop = trickle(socket);
    const received = await closedByServer(socket);
    stop();
    expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
  });

  test('a connection that says nothing at all is closed, after a 408 request_timeout as JSON', async () => {
    const received = await closedByServer(await openSocket(server.url));
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toMatchObject({
      code: 'request_timeout',
      field: 'unspecified_field',
      message: expect.any(String),
    });
  });

  test('an idle kept-alive connection is closed after its answer', async () => {
    const socket = await openSocket(server.url);
    const closed = closedByServer(socket);
    socket.write('GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(await closed).toMatch(/^HTTP\/1\.1 404/);
  });
});

describe('server options are checked', () => {
  test.each([
    [{ requestTimeoutMs: 0 }, 'requestTimeoutMs'],
    [{ headersTimeoutMs: 2_000, requestTimeoutMs: 1_000 }, 'headersTimeoutMs'],
    [{ keepAliveTimeoutMs: -1 }, 'keepAliveTimeoutMs'],
    [{ maxConnections: 0 }, 'maxConnections'],
    [{ maxBodyBytes: 0 }, 'maxBodyBytes'],
    [{ maxHeldBodyBytes: 0 }, 'maxHeldBodyBytes'],
    [{ maxHeldBodyBytes: 1.5 }, 'maxHeldBodyBytes'],
  ])('%j is refused, naming %s', async (options, field) => {
    await expect(startServer({ port: 0, ...options })).rejects.toMatchObject({ field });
  });
});

describe('the JSON depth scan', () => {
  /** The scan as first written: every character looked at, an escape skipping the next one. */
  function reference(text: string, max: number): boolean {
    let depth = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '"') {
        for (i++; i < text.length; i++) {
          if (text[i] === '\\') i++;
          else if (text[i] === '"') break;
        }
      } else if (c === '{' || c === '[') {
        if (++depth > max) return true;
      } else if (c === '}' || c === ']') depth--;
    }
    return false;
  }

  test('skips string literals by search and agrees with a character-by-character scan, on JSON and on broken text', () => {
    const broken = fc
      .array(fc.constantFrom('"', '\\', '[', ']', '{', '}', 'a', ',', ':'), { maxLength: 40 })
      .map((parts) => parts.join(''));
    const depth = fc.integer({ min: 0, max: 5 });
    const seed = 20240607;
    fc.assert(
      fc.property(broken, depth, (text, max) => jsonDepthExceeds(text, max) === reference(text, max)),
      { numRuns: 20_000, seed },
    );
    fc.assert(
      fc.property(fc.json(), depth, (text, max) => jsonDepthExceeds(text, max) === reference(text, max)),
      { numRuns: 5_000, seed },
    );
    // Escaped quotes and backslashes right before a closing quote.
    expect(jsonDepthExceeds('["\\\\", ["\\"[["]]', 1)).toBe(true);
    expect(jsonDepthExceeds('["\\"[["]', 1)).toBe(false);
  });
});
