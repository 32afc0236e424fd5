/**
 * `__proto__`, `constructor` and `prototype` are keys like any other (hardening): an unknown one is
 * `400 unknown_parameter` naming it, in a query, a JSON body (nested too) and a form, on the API and
 * on the authorization routes (a union of grant types included); and nothing changes.
 */
import { describe, expect, test } from 'vitest';
import { createPlatform } from '../../mock/index.js';
import {
  ADAPTERS,
  type CallOptions,
  demoIds,
  demoSite,
  entryOf,
  expectError,
  expectUnchanged,
  paths,
  READ,
  useAdapter,
} from './harness.js';

const KEYS = ['__proto__', 'constructor', 'prototype'];
const credentials = `"client_id":"${demoSite.clientId}","client_secret":"${demoSite.clientSecret}"`;

describe.each(ADAPTERS)('prototype keys through %s', (kind) => {
  const h = useAdapter(kind);

  /** Each case: where the key goes, and the field the refusal names. */
  const cases = (key: string): [string, string, CallOptions, string][] => [
    ['a query parameter (products)', paths.getProducts, { query: `?${key}=x`, token: 'api' }, key],
    [
      'a JSON key of a write (prices)',
      paths.updatePrices,
      {
        method: 'POST',
        body: `{"${key}":{"polluted":true}}`,
        headers: { 'content-type': 'application/json' },
        token: 'api',
      },
      key,
    ],
    [
      'a JSON key written with an escape',
      paths.updatePrices,
      {
        method: 'POST',
        body: `{"${key.replaceAll('_', '\\u005f')}":1}`,
        headers: { 'content-type': 'application/json' },
        token: 'api',
      },
      key,
    ],
    [
      'a JSON key of an access token request (a union of grant types)',
      paths.accessToken,
      {
        method: 'POST',
        host: 'auth',
        body: `{"grant_type":"none",${credentials},"${key}":{"a":1}}`,
        headers: { 'content-type': 'application/json' },
      },
      key,
    ],
    [
      'a form field of an access token request',
      paths.accessToken,
      {
        method: 'POST',
        host: 'auth',
        form: { grant_type: 'none', client_id: demoSite.clientId, client_secret: demoSite.clientSecret, [key]: 'x' },
      },
      key,
    ],
    [
      'a JSON key of a ticket request',
      paths.generateTicket,
      {
        method: 'POST',
        host: 'auth',
        body: `{"accountId":"${demoIds.accounts.anna}","clientId":"${demoSite.clientId}","${key}":{"a":1}}`,
        headers: { 'content-type': 'application/json' },
        token: 'ticket',
      },
      key,
    ],
  ];

  for (const key of KEYS)
    test.each(cases(key))(
      `${key} in %s: 400 unknown_parameter naming it; nothing changes`,
      async (_, path, options, field) => {
        // Tokens are minted in the test: the platform is reset before each one.
        const token =
          options.token === 'api'
            ? h.token()
            : options.token === 'ticket'
              ? h.token(['/api/authorization/ticket'])
              : undefined;
        const answer = await expectUnchanged(h.platform, () => h.call(path, { ...options, token }));
        expectError(answer, 400, 'unknown_parameter', field);
      },
    );

  test.each(KEYS)('%s repeated in a query is answered as any repeated unknown key is', async (key) => {
    const token = h.token();
    const ordinary = await h.call(paths.getProducts, { query: '?tags=a&foo=x&foo=y', token });
    const special = await expectUnchanged(h.platform, () =>
      h.call(paths.getProducts, { query: `?tags=a&${key}=x&${key}=y`, token }),
    );
    const { code, field } = ordinary.body as { code: string; field: string };
    expect(field).toBe('foo');
    expectError(special, ordinary.status, code, key);
  });

  test('constructor as a header name: answered as any header, journaled as an own key', async () => {
    const answer = await h.call(paths.getProducts, { token: h.token(), headers: { constructor: 'y' } });
    expect(answer.status).toBe(200);
    const { headers } = entryOf(h.platform, answer);
    expect(Object.getOwnPropertyDescriptor(headers, 'constructor')?.value).toBe('y');
  });
});

test('__proto__ as a header name (Fetch Headers allow it; node:http drops it): journaled as an own key, the prototype untouched', async () => {
  const platform = createPlatform();
  const token = platform.mintToken({ scopes: [READ] }).access_token;
  const headers = new Headers([
    ['__proto__', 'x'],
    ['authorization', `Bearer ${token}`],
  ]);
  const answer = await platform.handle(new Request(`https://api.platform.test${paths.getProducts}`, { headers }));
  expect(answer.status).toBe(200);
  const journaled = entryOf(platform, answer).headers;
  expect(Object.getPrototypeOf(journaled)).toBe(Object.prototype);
  expect(Object.getOwnPropertyDescriptor(journaled, '__proto__')?.value).toBe('x');
});
