/**
 * The SDK's me methods (beyond the spec) against the platform in process: `me.getDocumented` and
 * `me.activeProducts` with a user's token; bad input refused before anything is sent.
 */
import { describe, expect, test } from 'vitest';
import { cancelProduct, getMeDocumented, getMyActiveProducts, subscribeToCampaign } from '../../src/endpoints.js';
import { type PlatformClient, RequestValidationError } from '../../src/index.js';
import { client, demoIds, paths, platform, received, scopesOf, usePlatform } from './helpers.js';

usePlatform();

const { gus, eva } = demoIds.accounts;
const userToken = (accountId: string) =>
  platform.mintToken({ scopes: scopesOf(getMeDocumented, getMyActiveProducts), accountId }).access_token;

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
    const token = platform.mintToken({
      scopes: scopesOf(getMeDocumented, cancelProduct, subscribeToCampaign),
      accountId: gus,
    }).access_token;
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

  test.each([false as const, 'false' as const])(
    'include_articles=%j is accepted, as the other boolean query parameters',
    async (value) => {
      const answer = await client().me.activeProducts({ accessToken: userToken(gus) }, { include_articles: value });
      expect(answer.item.id).toBe(gus);
      expect(platform.requests.list().at(-1)?.query).toEqual({ include_articles: 'false' });
    },
  );

  test('include_articles=true is refused before sending', async () => {
    await expect(
      client().me.activeProducts({ accessToken: userToken(gus) }, { include_articles: 'true' as 'false' }),
    ).rejects.toBeInstanceOf(RequestValidationError);
    expect(received(paths.getMyActiveProducts)).toEqual([]);
  });
});

describe("a call for the signed-in user never goes out with the client's own token", () => {
  const id = demoIds.userProducts.gusPsp;
  // What JavaScript, or a cast, lets through: no options, options without the token, a blank token.
  const calls: [string, (sdk: PlatformClient) => Promise<unknown>, string][] = [
    ['me.getDocumented()', (sdk) => sdk.me.getDocumented(undefined as never), 'Parameter is required'],
    ['me.activeProducts({})', (sdk) => sdk.me.activeProducts({} as never), 'Parameter is required'],
    ['me.cancelProduct({ id })', (sdk) => sdk.me.cancelProduct({ id }, undefined as never), 'Parameter is required'],
    ['me.cancelProduct({ id }, {})', (sdk) => sdk.me.cancelProduct({ id }, {} as never), 'Parameter is required'],
    [
      'meRetention.subscribeToCampaign({ order_id })',
      (sdk) => sdk.meRetention.subscribeToCampaign({ order_id: 'order-0008' }, undefined as never),
      'Parameter is required',
    ],
    [
      'meRetention.eligibleForCampaign({ order_id }, {})',
      (sdk) => sdk.meRetention.eligibleForCampaign({ order_id: 'order-0008' }, {} as never),
      'Parameter is required',
    ],
    ['me.get(undefined)', (sdk) => sdk.me.get(undefined as never), 'Parameter is required'],
    [
      "me.cancelProduct({ id }, { accessToken: ' ' })",
      (sdk) => sdk.me.cancelProduct({ id }, { accessToken: ' ' }),
      'Parameter must be a non-empty string',
    ],
    ["me.get({ accessToken: ' ' })", (sdk) => sdk.me.get({ accessToken: ' ' }), 'Parameter must be a non-empty string'],
  ];

  test.each(calls)('%s: RequestValidationError naming accessToken, nothing sent', async (_, call, rule) => {
    const error = await call(client()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ field: 'accessToken', rule: expect.stringContaining(rule) });
    expect(received()).toEqual([]);
  });
});
