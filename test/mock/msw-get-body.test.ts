/**
 * Endpoint 6's GET carries its parameters in a JSON body, which the MSW adapter reads from the raw
 * body @mswjs/interceptors keeps on a request made with node:http (`mock/msw.ts`). It is read
 * whatever the headers say: a test environment's `Request` (happy-dom's, jsdom's) drops
 * `Content-Length`, a header a page may not set. And an msw too old to keep the body fails with an
 * error that says to upgrade it, rather than the body read as `{}`.
 */
import { createRequire } from 'node:module';
import { http as mswHttp } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { createHandlers, createPlatform, defaultHosts } from '../../mock/index.js';
import { MSW_BODY_MINIMUM } from '../../mock/msw.js';
import { demoIds } from '../../mock/seeds/demo.js';
import * as e from '../../src/endpoints.js';
import { pathOf } from '../../src/endpoints.js';

// The CommonJS module itself: MSW intercepts its `request` (an ESM namespace keeps the original).
const https = createRequire(import.meta.url)('node:https') as typeof import('node:https');

const platform = createPlatform();
const url = new URL(pathOf(e.eligibleForCampaign, 'stage'), defaultHosts.api);
const server = setupServer(...createHandlers(platform, defaultHosts));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A handler that answers nothing and changes the request before the platform's handlers see it. */
const before = (change: (request: Request) => void) =>
  mswHttp.all(/eligible/, ({ request }) => {
    change(request);
  });

/** Endpoint 6 over node:https: its status, body text and correlation id. */
function eligible(body: string): Promise<{ status: number; text: string; correlationId: unknown }> {
  const { access_token } = platform.mintToken({
    scopes: ['/external/me/w', '/external/me/r'],
    accountId: demoIds.accounts.gus,
  });
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: 'GET',
        headers: {
          authorization: `Bearer ${access_token}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text, correlationId: res.headers['x-correlation-id'] }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test("endpoint 6 under MSW: the body is read when the request's headers do not announce it", async () => {
  server.use(
    before((request) => {
      request.headers.delete('content-length');
      request.headers.delete('transfer-encoding');
    }),
  );
  const answer = await eligible(JSON.stringify({ user_product_id: demoIds.userProducts.gusPsp }));
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.text)).toMatchObject({ item: { code: expect.any(String) } });
  const refused = await eligible(JSON.stringify({ user_product_id: demoIds.userProducts.gusPsp, extra: 1 }));
  expect(refused.status).toBe(400);
  expect(JSON.parse(refused.text)).toMatchObject({ code: 'unknown_parameter', field: 'extra' });
});

test('endpoint 6 under an msw that keeps no raw body (older than 2.8.5): an error that names the msw version', async () => {
  server.use(
    before((request) => {
      for (const key of Object.getOwnPropertySymbols(request)) {
        if (key.description === 'kRawRequestBodyStream') Reflect.deleteProperty(request, key);
      }
    }),
  );
  // Everything but the tokens (each call mints the user's).
  const stateOf = () => ({ ...platform.snapshot(), access_tokens: [] });
  const start = stateOf();
  const answer = await eligible(JSON.stringify({ user_product_id: demoIds.userProducts.gusPsp }));
  expect(answer.status).toBe(500);
  // The platform's own answer, as to any refusal: the common error body naming the body, the
  // correlation id in the header and the body, and an entry in the journal.
  expect(JSON.parse(answer.text)).toMatchObject({
    code: 'internal_server_error',
    field: 'body',
    api_correlation_id: answer.correlationId,
  });
  expect(answer.correlationId).toEqual(expect.any(String));
  expect(platform.requests.list().at(-1)).toMatchObject({ status: 500, correlation_id: answer.correlationId });
  expect(stateOf()).toEqual(start);
  expect(answer.text).toContain(`older than ${MSW_BODY_MINIMUM}`);
  expect(answer.text).toContain(`npm i -D msw@^${MSW_BODY_MINIMUM}`);
  expect(answer.text).not.toContain('JSON body, not in the query');
});
