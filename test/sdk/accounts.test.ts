/** The SDK's accounts method (beyond the spec) against the platform in process: an account's active products. */
import { describe, expect, test } from 'vitest';
import { getAccountActiveProducts } from '../../src/endpoints.js';
import { NotFoundError } from '../../src/index.js';
import { client, demoIds, scopesOf, usePlatform } from './helpers.js';

usePlatform();

const { bo, dora } = demoIds.accounts;
const reader = () => client({}, scopesOf(getAccountActiveProducts));

describe('accounts', () => {
  test("accounts.activeProducts: an account's; another organisation's is NotFoundError naming account_id", async () => {
    expect((await reader().accounts.activeProducts({ account_id: bo })).item.active_products).toEqual([
      'basic-news',
      'digital-news',
    ]);
    await expect(reader().accounts.activeProducts({ account_id: dora })).rejects.toMatchObject({
      constructor: NotFoundError,
      code: 'not_found',
      field: 'account_id',
    });
  });
});
