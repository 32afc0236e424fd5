/**
 * The account API beyond the spec (the platform's public documentation), through both adapters: an
 * account's active products, with `/external/account/r`. Every refusal changes nothing.
 */
import { describe, expect, test } from 'vitest';
import * as e from '../../src/endpoints.js';
import { ActiveProductsResponse } from '../../src/schemas/me.js';
import { ADAPTERS, absent, demoIds, expectError, expectOk, expectUnchanged, useAdapter } from './harness.js';

const path = { account: e.pathOf(e.getAccountActiveProducts, 'stage') };
const { bo, dora } = demoIds.accounts;

describe.each(ADAPTERS)('an account\u2019s active products through %s', (kind) => {
  const h = useAdapter(kind);

  test("an account's, with /external/account/r", async () => {
    const token = h.token(['/external/account/r']);
    const { item } = expectOk(await h.call(path.account, { query: { account_id: bo }, token }), ActiveProductsResponse);
    expect(item).toEqual({ id: bo, active_products: ['basic-news', 'digital-news'] });
  });

  test.each([
    ['an account of another organisation', { account_id: dora }, 404, 'not_found', 'account_id'],
    ['an absent account', { account_id: absent.account }, 404, 'not_found', 'account_id'],
    ['no account_id', {}, 400, 'invalid_parameter', 'account_id'],
    [
      'include_articles=true (articles are not modelled)',
      { account_id: bo, include_articles: 'true' },
      400,
      'invalid_parameter',
      'include_articles',
    ],
    ['an unknown parameter', { account_id: bo, expand: 'x' }, 400, 'unknown_parameter', 'expand'],
  ])('%s: %s %s; nothing changes', async (_, query, status, code, field) => {
    const token = h.token(['/external/account/r']);
    expectError(await expectUnchanged(h.platform, () => h.call(path.account, { query, token })), status, code, field);
  });

  test('include_articles=false is accepted; without /external/account/r: 403', async () => {
    const ok = await h.call(path.account, {
      query: { account_id: bo, include_articles: 'false' },
      token: h.token(['/external/account/r']),
    });
    expectOk(ok, ActiveProductsResponse);
    expectError(
      await h.call(path.account, { query: { account_id: bo }, token: h.token(['/external/product/r']) }),
      403,
      'insufficient_scope',
    );
  });
});
