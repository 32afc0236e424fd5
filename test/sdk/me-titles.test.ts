/**
 * The SDK's me, account and titles methods (beyond the spec) against the platform in process:
 * `me.getDocumented`, `me.activeProducts`, `accounts.activeProducts`, `titles.list` and
 * `titles.find`; bad input refused before anything is sent; errors by status.
 */
import { describe, expect, test } from 'vitest';
import { NotFoundError, PermissionDeniedError, RequestValidationError } from '../../src/index.js';
import { client, demoIds, platform, received, usePlatform } from './helpers.js';

usePlatform();

const { gus, eva, bo, dora } = demoIds.accounts;
const userToken = (accountId: string) => platform.mintToken({ scopes: ['/external/me/w'], accountId }).access_token;

describe('me', () => {
  test('getDocumented: the user and every user-product with its state (what a site lists to cancel)', async () => {
    const { item } = await client().me.getDocumented({ accessToken: userToken(eva) });
    expect(item.id).toBe(eva);
    expect(item.user_products.some((u) => u.state === 'cancelled')).toBe(true);
  });

  test('activeProducts: the codes the user has access to now', async () => {
    const { item } = await client().me.activeProducts({ accessToken: userToken(gus) });
    expect(item.active_products).toEqual(['basic-news', 'digital-news', 'e-paper', 'premium-digital']);
  });

  test("getDocumented after subscribeToCampaign and cancelProduct: the user-product's product, title and state as changed", async () => {
    const token = platform.mintToken({ scopes: ['/external/me/w', '/external/me/r'], accountId: gus }).access_token;
    const mine = async () =>
      (await client().me.getDocumented({ accessToken: token })).item.user_products.find(
        (u) => u.id === demoIds.userProducts.gusPsp,
      );
    expect(await mine()).toMatchObject({
      product_code: 'premium-digital',
      state: 'activated',
      campaign_end_date: null,
    });
    await client().me.cancelProduct({ id: demoIds.userProducts.gusPsp }, { accessToken: token });
    expect(await mine()).toMatchObject({ state: 'cancelled', subscription_end_date: '2999-12-31T23:59:59Z' });
    await client().meRetention.subscribeToCampaign(
      { user_product_id: demoIds.userProducts.gusPsp },
      { accessToken: token },
    );
    expect(await mine()).toMatchObject({
      product_code: 'premium-summer',
      title_code: 'DAILY',
      state: 'activated',
      valid_to: '2999-12-31T23:59:59Z',
      campaign_end_date: '2999-12-31T23:59:59Z',
      subscription_end_date: null,
    });
  });

  test('include_articles=true is refused before sending', async () => {
    await expect(
      client().me.activeProducts({ accessToken: userToken(gus) }, { include_articles: 'true' as 'false' }),
    ).rejects.toBeInstanceOf(RequestValidationError);
    expect(received('/external/api/v1/me/active_products')).toEqual([]);
  });
});

describe('accounts and titles', () => {
  const reader = () => client({}, ['/external/account/r', '/external/title/r']);

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

  test('titles.list and titles.find', async () => {
    expect((await reader().titles.list()).items.map((t) => t.code)).toEqual(['DAILY', 'EPAPER']);
    expect((await reader().titles.find({ title_code: 'DAILY' })).item.name).toBe('Demo Daily');
    await expect(reader().titles.find({ title_code: 'COMPLEX' })).rejects.toBeInstanceOf(NotFoundError);
  });

  test('without the scope: PermissionDeniedError; an empty title_code: refused before sending', async () => {
    await expect(client().titles.list()).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(reader().titles.find({ title_code: '' })).rejects.toBeInstanceOf(RequestValidationError);
  });
});
