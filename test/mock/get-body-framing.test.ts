/**
 * Endpoint 6 (eligible for campaign) is a GET whose parameters travel in a JSON body. Over
 * node:http the body may be framed either way HTTP/1.1 allows: `Content-Length`, or
 * `Transfer-Encoding: chunked` with no length, as a client streaming it sends. A body with no
 * framing at all is the next request to HTTP/1.1: refused, with a message that names the fix.
 */
import * as http from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPlatform } from '../../mock/index.js';
import { type RunningServer, startServer } from '../../mock/node/index.js';
import { demoIds } from '../../mock/seeds/demo.js';
import * as e from '../../src/endpoints.js';
import { pathOf } from '../../src/endpoints.js';
import { closedByServer, openSocket } from './raw-http.js';

const path = pathOf(e.eligibleForCampaign, 'stage');
const platform = createPlatform();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ platform, port: 0 });
});
afterAll(() => server.close());

const token = () =>
  platform.mintToken({ scopes: ['/external/me/w', '/external/me/r'], accountId: demoIds.accounts.gus }).access_token;

/** Endpoint 6 over node:http, the body written in `pieces`; framed by Content-Length or chunked. */
function eligible(
  pieces: string[],
  framing: 'content-length' | 'chunked',
  bearer = token(),
): Promise<{ status: number; body: unknown }> {
  const whole = pieces.join('');
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, server.url),
      {
        method: 'GET',
        agent: false,
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
          ...(framing === 'chunked'
            ? { 'transfer-encoding': 'chunked' }
            : { 'content-length': String(Buffer.byteLength(whole)) }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    // Each write is a chunk of its own when chunked.
    for (const piece of pieces) req.write(piece);
    req.end();
  });
}

test('eligible for campaign: a body sent chunked, without Content-Length, is read as one sent with it', async () => {
  const json = JSON.stringify({ user_product_id: demoIds.userProducts.gusPsp });
  const pieces = [json.slice(0, 5), json.slice(5, 20), json.slice(20)];
  const withLength = await eligible([json], 'content-length');
  expect(withLength.status).toBe(200);
  expect(withLength.body).toMatchObject({ item: { code: expect.any(String) } });
  const chunked = await eligible(pieces, 'chunked');
  expect(chunked).toEqual(withLength);
});

test('eligible for campaign: a chunked body is checked as any other (a key it does not take: 400 unknown_parameter)', async () => {
  const bearer = token();
  const before = platform.snapshot();
  const answer = await eligible(['{"user_product_id":"x",', '"campaign_code":"x"}'], 'chunked', bearer);
  expect(answer).toMatchObject({ status: 400, body: { code: 'unknown_parameter', field: 'campaign_code' } });
  expect(platform.snapshot()).toEqual(before);
});

test('a body with no framing (neither Content-Length nor Transfer-Encoding): 400 malformed_request naming both', async () => {
  const bearer = token();
  const before = platform.snapshot();
  const socket = await openSocket(server.url);
  const closed = closedByServer(socket);
  const body = JSON.stringify({ user_product_id: demoIds.userProducts.gusPsp });
  // What Node's http.request sends for a GET body when given neither header.
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${bearer}\r\n` +
      `Content-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
  );
  const text = await closed;
  expect(text).toMatch(/^HTTP\/1\.1 400 /);
  expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({
    code: 'malformed_request',
    field: 'unspecified_field',
    message: expect.stringMatching(/Content-Length or Transfer-Encoding: chunked/),
  });
  expect(platform.snapshot()).toEqual(before);
});
