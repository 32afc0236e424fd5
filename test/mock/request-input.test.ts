/**
 * How the platform reads a request's input, before any endpoint's own rules (spec: the error
 * codes): its Content-Type, its JSON, a body that must be an object, and query and form names
 * given once. Each refusal is checked whole (status, `code`, `field` and the message a developer
 * reads), and changes nothing.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { demoIds } from '../../mock/seeds/demo.js';
import { IdResponse } from '../../src/schemas/common.js';
import { ADAPTERS, expectError, expectOk, expectUnchanged, paths, READ, useAdapter } from './harness.js';

const prices = {
  package_integration_code: 'PREMIUM-DIGITAL',
  price_periods: [{ subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price: 9 }],
};

describe.each(ADAPTERS)("reading a request's input through %s", (kind) => {
  const h = useAdapter(kind);
  // Minted before each test's request: a refusal is then checked against a state that already holds it.
  let token = '';
  let readToken = '';
  beforeEach(() => {
    token = h.token();
    readToken = h.token([READ]);
  });
  /** Update prices (endpoint 1), a JSON body, with this Content-Type. */
  const updatePrices = (body: string, contentType = 'application/json') =>
    h.call(paths.updatePrices, { method: 'POST', body, headers: { 'content-type': contentType }, token });

  test.each(['application/json; charset=utf-8', 'application/json ; charset=utf-8', 'Application/JSON;charset=UTF-8'])(
    'Content-Type %s is JSON: its parameters, spaces and letter case aside',
    async (contentType) => {
      expectOk(await updatePrices(JSON.stringify(prices), contentType), IdResponse);
    },
  );

  test.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/merge-patch+json',
    // Two Content-Type lines, as Fetch joins them.
    'application/json, text/plain',
  ])(
    'Content-Type %s on a JSON endpoint: 400 invalid_content_type_error, field content-type; nothing changes',
    async (contentType) => {
      const answer = await expectUnchanged(h.platform, () => updatePrices(JSON.stringify(prices), contentType));
      const body = expectError(answer, 400, 'invalid_content_type_error', 'content-type');
      expect(body.message).toBe('Content-Type must be application/json');
    },
  );

  test('a write sent with no body and no Content-Type: 400 invalid_content_type_error, field content-type, before the missing fields; nothing changes', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.updatePrices, { method: 'POST', headers: { accept: 'application/json' }, token }),
    );
    expect(expectError(answer, 400, 'invalid_content_type_error', 'content-type').message).toBe(
      'Content-Type must be application/json',
    );
  });

  test('a write sent with Content-Type application/json and an empty body: 400 json_parser_error, field body; nothing changes', async () => {
    const answer = await expectUnchanged(h.platform, () => updatePrices(''));
    expectError(answer, 400, 'json_parser_error', 'body');
  });

  test('a body that is not JSON: 400 json_parser_error, field body; nothing changes', async () => {
    const answer = await expectUnchanged(h.platform, () => updatePrices('{"package_integration_code":'));
    expect(expectError(answer, 400, 'json_parser_error', 'body').message).toBe('Body is not valid JSON');
  });

  test.each(['null', '[]', `[${JSON.stringify(prices)}]`, '12', '"PREMIUM-DIGITAL"', 'true'])(
    'a JSON body that is not an object (%s): 400 invalid_parameter, field body; nothing changes',
    async (json) => {
      const answer = await expectUnchanged(h.platform, () => updatePrices(json));
      expect(expectError(answer, 400, 'invalid_parameter', 'body').message).toBe('Body must be a JSON object');
    },
  );

  test('a member given twice in one object: the last counts, as JSON.parse reads it (docs/assumptions.md)', async () => {
    const period =
      '{"subscription_type":"recurring","payment_option":"creditcard","type":"month","length":1,"price":9,"price":12.5}';
    const json = `{"package_integration_code":"PREMIUM-DIGITAL","price_periods":[${period}]}`;
    expectOk(await updatePrices(json), IdResponse);
    const stored = h.platform.snapshot().products.find((p) => p.integration_code === 'PREMIUM-DIGITAL');
    expect(stored?.price_periods.find((pp) => pp.id === demoIds.periods.premiumCreditcard)?.price).toBe(12.5);
  });

  test('an unknown member: 400 unknown_parameter naming it, and the message says which', async () => {
    const answer = await expectUnchanged(h.platform, () => updatePrices(JSON.stringify({ ...prices, colour: 'red' })));
    expect(expectError(answer, 400, 'unknown_parameter', 'colour').message).toBe('Unknown parameter: colour');
  });

  test('a query on a body endpoint: ?& names no parameter and is accepted, as on a query endpoint; a name is 400 unknown_parameter naming it', async () => {
    const post = (query: string) =>
      h.call(`${paths.updatePrices}${query}`, {
        method: 'POST',
        body: JSON.stringify(prices),
        headers: { 'content-type': 'application/json' },
        token,
      });
    expectOk(await post('?&'), IdResponse);
    const answer = await expectUnchanged(h.platform, () => post('?&colour=red'));
    expect(expectError(answer, 400, 'unknown_parameter', 'colour').message).toBe('Unknown parameter: colour');
  });

  test('a parameter without a name (?=x, a body\'s ""): 400 unknown_parameter, field "", named in quotes; nothing changes', async () => {
    const nameless = 'Unknown parameter: ""';
    for (const query of ['?=x', '?=']) {
      const answer = await expectUnchanged(h.platform, () => h.call(paths.getProducts, { query, token: readToken }));
      expect(expectError(answer, 400, 'unknown_parameter', '').message).toBe(nameless);
    }
    const post = await expectUnchanged(h.platform, () =>
      h.call(`${paths.updatePrices}?=x`, {
        method: 'POST',
        body: JSON.stringify(prices),
        headers: { 'content-type': 'application/json' },
        token,
      }),
    );
    expect(expectError(post, 400, 'unknown_parameter', '').message).toBe(nameless);
    const body = await expectUnchanged(h.platform, () => updatePrices(JSON.stringify({ ...prices, '': 1 })));
    expect(expectError(body, 400, 'unknown_parameter', '').message).toBe(nameless);
  });

  test('a query parameter given twice: 400 invalid_parameter naming it', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.getProducts, { query: '?product_type=packages&product_type=titles', token: readToken }),
    );
    const body = expectError(answer, 400, 'invalid_parameter', 'product_type');
    expect(body.message).toBe('Parameter must not be repeated');
  });

  test('a form field given twice: 400 invalid_parameter naming it; no token is issued', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.accessToken, {
        method: 'POST',
        host: 'auth',
        body: 'grant_type=none&client_id=demo-client&client_id=demo-client',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
    expect(expectError(answer, 400, 'invalid_parameter', 'client_id').message).toBe('Parameter must not be repeated');
  });
});
