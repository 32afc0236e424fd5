/**
 * The node:http adapter at the edges of HTTP/1.1: a `CONNECT`, an expectation other than
 * `100-continue`, a request that names no host, one with two `Host` lines, an absolute-form target
 * (answered) and a target of another form (refused). Each is answered with the platform's JSON
 * error (never a bare status or a silent close), and changes nothing.
 */
import * as net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RequestLogLine, type RunningServer, startServer } from '../../mock/node/index.js';
import { paths } from '../paths.js';
import { until } from '../until.js';

/** An answer read off a raw socket: status, header lines and the parsed JSON body. */
interface RawReply {
  status: number;
  head: string;
  json: unknown;
}

/** Writes `text` on a new connection and reads until the server closes it. */
function exchange(origin: string, text: string): Promise<RawReply> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const end = received.indexOf('\r\n\r\n');
      const head = received.slice(0, end);
      let json: unknown;
      try {
        json = JSON.parse(received.slice(end + 4));
      } catch {
        json = undefined;
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0), head, json });
    });
  });
}

/**
 * Sends a token grant (`lines` added to its head) on a new connection, held a while by a latency
 * fault; once the platform has it, writes `stray` on the same connection, and reads until the server
 * closes it. The text read.
 */
async function grantThenStray(server: RunningServer, lines: string, stray: string): Promise<string> {
  const body = 'grant_type=none&client_id=demo-client&client_secret=demo-secret-0123456789abcdef0123456789abcdef';
  // Held a while, so that the stray bytes come while the grant is being answered.
  server.platform.faults.add({ path: paths.accessToken, latencyMs: 1_000 });
  const journaled = server.platform.requests.list().length;
  const { hostname, port } = new URL(server.url);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('utf8');
  });
  const closed = new Promise((resolve) => socket.on('close', resolve));
  // On a machine slow enough that the answer was sent and the connection closed before the stray
  // bytes, writing them fails (EPIPE): the answer read is still the grant's, and the test holds.
  socket.on('error', () => undefined);
  socket.write(
    `POST ${paths.accessToken} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines}` +
      `content-type: application/x-www-form-urlencoded\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
  );
  await until(() => expect(server.platform.requests.list().length).toBe(journaled + 1));
  socket.write(stray);
  await closed;
  return received;
}

describe('the node:http adapter answers the edges of HTTP/1.1 as JSON', () => {
  let server: RunningServer;
  const lines: RequestLogLine[] = [];
  beforeAll(async () => {
    server = await startServer({ port: 0, seed: 'demo', onRequest: (line) => lines.push(line) });
  });
  afterAll(() => server.close());

  test.each([
    [
      'Content-Type, JSON first',
      'content-type: application/json\r\ncontent-type: text/plain',
      400,
      'invalid_content_type_error',
    ],
    [
      'Content-Type, JSON last',
      'content-type: text/plain\r\ncontent-type: application/json',
      400,
      'invalid_content_type_error',
    ],
    [
      'Authorization, the valid token first',
      'authorization: Bearer {token}\r\nauthorization: Bearer nope\r\ncontent-type: application/json',
      401,
      'invalid_token',
    ],
  ])(
    'two %s lines are read as one, their values joined as Fetch (and so the in-process platform) joins them: refused, nothing changes',
    async (_, lines, status, code) => {
      const { access_token: token } = server.platform.mintToken({
        clientId: 'demo-client',
        scopes: ['/external/subscription_system/w'],
      });
      const body = '{"customer_number":"C1001"}';
      const auth = lines.includes('authorization') ? '' : `authorization: Bearer ${token}\r\n`;
      const before = server.platform.snapshot();
      const reply = await exchange(
        server.url,
        `PUT ${paths.syncAddress} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}${lines.replace('{token}', token)}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      );
      expect(reply.status).toBe(status);
      expect(reply.json).toMatchObject({ code });
      expect(server.platform.snapshot()).toEqual(before);
    },
  );

  test.each([
    ['data after Connection: close', 'connection: close\r\n', 'X', /not valid HTTP/],
    ['a body without framing after it', '', '{"a":1}', /Content-Length or Transfer-Encoding/],
  ])(
    'a grant followed, in the same packet, by %s: 400 malformed_request, and no token is issued',
    async (_, lines, after, message) => {
      const body = 'grant_type=none&client_id=demo-client&client_secret=demo-secret-0123456789abcdef0123456789abcdef';
      const before = server.platform.snapshot();
      const answer = await exchange(
        server.url,
        `POST ${paths.accessToken} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines}` +
          `content-type: application/x-www-form-urlencoded\r\ncontent-length: ${body.length}\r\n\r\n${body}${after}`,
      );
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        code: 'malformed_request',
        field: 'unspecified_field',
        message: expect.stringMatching(message),
      });
      // The answer says the request was refused: it changed nothing (before, a token was issued and its answer lost).
      expect(server.platform.snapshot()).toEqual(before);
    },
  );

  test('bytes after Connection: close that come once the request reached the platform do not replace its answer', async () => {
    const received = await grantThenStray(server, 'connection: close\r\n', 'X');
    // The grant issued a token: its answer says so, rather than a 400 that would say nothing changed.
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toContain('"access_token"');
    expect(received).not.toContain('malformed_request');
  });

  test('two Set-Cookie lines (the one field node:http keeps as a list) reach the platform as one field, journaled redacted; a __proto__ line does not reach it', async () => {
    const { access_token: token } = server.platform.mintToken({ scopes: ['/external/product/r'] });
    const journaled = server.platform.requests.list().length;
    const reply = await exchange(
      server.url,
      `GET ${paths.getProducts} HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n` +
        'set-cookie: a=1\r\nSet-Cookie: b=2\r\n__proto__: x\r\nconnection: close\r\n\r\n',
    );
    expect(reply.status).toBe(200);
    const entries = server.platform.requests.list();
    expect(entries).toHaveLength(journaled + 1);
    const headers = entries.at(-1)!.headers;
    expect(headers['set-cookie']).toBe('[redacted]');
    expect(Object.hasOwn(headers, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
  });

  test('bytes node:http cannot parse, sent on a kept-alive connection while its request is answered: the answer is sent, then the connection is closed', async () => {
    // Kept alive far longer than the test may run: only the server's refusal closes the connection.
    const held = await startServer({ port: 0, seed: 'demo', keepAliveTimeoutMs: 600_000 });
    try {
      const received = await grantThenStray(held, '', '\u0000 / HTTP/1.1\r\n\r\n');
      // The grant's answer comes first and whole. (On a machine slow enough that it was sent before
      // the stray bytes came, their refusal follows it on the idle connection, which is right too.)
      expect(received).toMatch(/^HTTP\/1\.1 200 /);
      expect(received).toContain('"access_token"');
    } finally {
      await held.close();
    }
  }, 30_000);

  test('CONNECT (this server is no proxy): 405 method_not_allowed as JSON, then the connection is closed; nothing changes', async () => {
    const before = server.platform.snapshot();
    const reply = await exchange(server.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(reply.status).toBe(405);
    expect(reply.head).toMatch(/content-type: application\/json/i);
    expect(reply.json).toEqual({
      code: 'method_not_allowed',
      field: 'method',
      message: 'CONNECT is not served: this server is not a proxy',
    });
    expect(server.platform.snapshot()).toEqual(before);
  });

  test.each([
    ['200-ok on a GET', `GET ${paths.getProducts} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\n\r\n`],
    [
      '200-ok on a POST whose body waits for it',
      `POST ${paths.accessToken} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\ncontent-type: application/json\r\ncontent-length: 20\r\n\r\n`,
    ],
  ])('Expect: %s: 417 expectation_failed, field expect, as JSON and journaled; nothing changes', async (_, text) => {
    const before = server.platform.snapshot();
    const reply = await exchange(server.url, text);
    expect(reply.status).toBe(417);
    expect(reply.json).toMatchObject({
      code: 'expectation_failed',
      field: 'expect',
      message: 'The Expect header names an expectation this server cannot meet: only 100-continue is',
    });
    const id = (reply.json as { api_correlation_id: string }).api_correlation_id;
    expect(server.platform.requests.list().find((e) => e.correlation_id === id)).toMatchObject({
      status: 417,
      body: null,
    });
    expect(server.platform.snapshot()).toEqual(before);
  });

  test('Expect: 100-continue is still met', async () => {
    const body = JSON.stringify({ grant_type: 'none' });
    const reply = await exchange(
      server.url,
      `POST ${paths.accessToken} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nconnection: close\r\n` +
        `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    );
    expect(reply.head).toMatch(/^HTTP\/1\.1 100 Continue/);
  });

  test.each([
    ['an empty Host (HTTP/1.1)', 'GET /__admin/state HTTP/1.1\r\nHost:\r\nconnection: close\r\n\r\n'],
    ['an empty Host (HTTP/1.0)', 'GET /__admin/state HTTP/1.0\r\nHost:\r\n\r\n'],
    ['no Host (HTTP/1.0)', 'GET /__admin/state HTTP/1.0\r\n\r\n'],
    ['no Host (HTTP/1.1)', 'GET /__admin/state HTTP/1.1\r\nconnection: close\r\n\r\n'],
    ['no Host on the API (HTTP/1.0)', `GET ${paths.getProducts} HTTP/1.0\r\n\r\n`],
  ])(
    'a request that names no host, %s: 403 host_not_allowed, field host, as JSON; nothing changes',
    async (_, text) => {
      const before = server.platform.snapshot();
      const reply = await exchange(server.url, text);
      expect(reply.status).toBe(403);
      expect(reply.json).toMatchObject({
        code: 'host_not_allowed',
        field: 'host',
        message: 'The request names no host: send a Host header with the host name this server is reached by',
      });
      expect(server.platform.snapshot()).toEqual(before);
    },
  );

  test.each([
    ['an answered host first', 'Host: 127.0.0.1\r\nHost: evil.example'],
    ['an answered host last', 'Host: evil.example\r\nHost: 127.0.0.1'],
    ['the same host twice', 'Host: 127.0.0.1\r\nhost: 127.0.0.1'],
  ])(
    'two Host lines (RFC 9112, 3.2), %s: 400 malformed_request, field host, as JSON and journaled; nothing changes',
    async (_, hosts) => {
      const before = server.platform.snapshot();
      const reply = await exchange(
        server.url,
        `GET ${paths.getProducts} HTTP/1.1\r\n${hosts}\r\nconnection: close\r\n\r\n`,
      );
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({
        code: 'malformed_request',
        field: 'host',
        message: 'The request has more than one Host header: send one',
      });
      const id = (reply.json as { api_correlation_id: string }).api_correlation_id;
      expect(server.platform.requests.list().find((e) => e.correlation_id === id)).toMatchObject({ status: 400 });
      expect(server.platform.snapshot()).toEqual(before);
    },
  );

  test('an absolute-form target (RFC 9112, 3.2.2) is answered as its path, with its correlation id, and journaled', async () => {
    const { host } = new URL(server.url);
    const reply = await exchange(
      server.url,
      `GET http://${host}/openapi.json HTTP/1.1\r\nHost: ${host}\r\nconnection: close\r\n\r\n`,
    );
    expect(reply.status).toBe(200);
    expect(reply.head).toMatch(/\r\nx-correlation-id: [\w-]+/i);
    expect(reply.head).toMatch(/\r\ncontent-length: \d+/i);
    expect(reply.json).toMatchObject({ openapi: expect.any(String) });
    const correlationId = /\r\nx-correlation-id: ([\w-]+)/i.exec(reply.head)?.[1];
    // The request log shows the path, as it shows an origin-form target's.
    await until(() =>
      expect(lines).toContainEqual(expect.objectContaining({ path: '/openapi.json', status: 200, correlationId })),
    );
    const before = server.platform.snapshot();
    const refused = await exchange(
      server.url,
      `GET http://${host}${paths.getProducts}?limit=1 HTTP/1.1\r\nHost: ${host}\r\nconnection: close\r\n\r\n`,
    );
    expect(refused.status).toBe(401);
    const id = (refused.json as { api_correlation_id: string }).api_correlation_id;
    expect(server.platform.requests.list().find((e) => e.correlation_id === id)).toMatchObject({
      path: paths.getProducts,
      status: 401,
    });
    expect(server.platform.snapshot()).toEqual(before);
  });

  test.each([
    ['without a path', (host: string) => `http://${host}`, 404],
    ['with a query and no path', (host: string) => `http://${host}?a=1`, 404],
    ['with a scheme in capitals', (host: string) => `HTTP://${host}/openapi.json`, 200],
    [
      'of https (the scheme a proxy in front of it was asked for)',
      (host: string) => `https://${host}/openapi.json`,
      200,
    ],
    [
      'under localhost, with another Host header (the target names the host)',
      (host: string) => `http://localhost:${host.split(':')[1]}/openapi.json`,
      200,
    ],
  ])('an absolute-form target %s is read as origin-form', async (_, target, status) => {
    const reply = await exchange(
      server.url,
      `GET ${target(new URL(server.url).host)} HTTP/1.1\r\nHost: evil.example\r\nconnection: close\r\n\r\n`,
    );
    expect(reply.status).toBe(status);
  });

  test('an absolute-form target naming a host it does not serve: 403 host_not_allowed, field host, whatever Host says; nothing changes', async () => {
    const before = server.platform.snapshot();
    const reply = await exchange(
      server.url,
      `POST http://evil.example/__admin/reset HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nconnection: close\r\n\r\n`,
    );
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({
      code: 'host_not_allowed',
      field: 'host',
      message:
        'The request target names a host this server does not answer: reach it by a loopback address, or list the host with --allowed-hosts',
    });
    expect(server.platform.snapshot()).toEqual(before);
  });

  test.each([
    ['OPTIONS * (asterisk-form)', 'OPTIONS * HTTP/1.1'],
    ['authority-form outside CONNECT', 'GET localhost:4010 HTTP/1.1'],
    ['an absolute URL with credentials', 'GET http://user:pw@127.0.0.1/openapi.json HTTP/1.1'],
    ['an absolute URL naming no host', 'GET http:///openapi.json HTTP/1.1'],
    ['an absolute URL of another scheme', 'GET ftp://127.0.0.1/openapi.json HTTP/1.1'],
  ])(
    'a target that is neither a path nor an absolute http(s) URL, %s: 400 malformed_request as JSON with its length; nothing changes',
    async (_, line) => {
      const before = server.platform.snapshot();
      const journaled = server.platform.requests.list().length;
      const reply = await exchange(server.url, `${line}\r\nHost: 127.0.0.1\r\n\r\n`);
      expect(reply.status).toBe(400);
      expect(reply.head).toMatch(/\r\ncontent-length: \d+/i);
      expect(reply.head).not.toMatch(/transfer-encoding/i);
      expect(reply.json).toMatchObject({ code: 'malformed_request', message: expect.any(String) });
      expect(server.platform.requests.list()).toHaveLength(journaled);
      expect(server.platform.snapshot()).toEqual(before);
    },
  );

  test('the request log shows a refused target as sent, without the credentials before its host', async () => {
    const reply = await exchange(
      server.url,
      'GET http://user:pw@127.0.0.1/x?token=t0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    );
    expect(reply.status).toBe(400);
    await until(() =>
      expect(lines).toContainEqual(
        expect.objectContaining({ path: 'http://[redacted]@127.0.0.1/x?token=[redacted]', status: 400 }),
      ),
    );
  });

  test('a Host it does not serve is still 403 host_not_allowed', async () => {
    const reply = await exchange(server.url, 'GET /__admin/state HTTP/1.0\r\nHost: evil.example\r\n\r\n');
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({ code: 'host_not_allowed', field: 'host' });
  });
});
