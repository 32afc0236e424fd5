/**
 * Retention (endpoints 6 and 7) and cancel product through the SDK, in process under MSW: endpoint
 * 6's GET body travels over node:http(s), which MSW intercepts (over a real socket: pipeline.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { cancelProduct, eligibleForCampaign, subscribeToCampaign } from '../../src/endpoints.js';
import { ConflictError, NotFoundError, RequestValidationError } from '../../src/index.js';
import { client, demoIds, paths, platform, received, requestsTo, scopesOf, usePlatform } from './helpers.js';

usePlatform();

const ME = scopesOf(eligibleForCampaign, subscribeToCampaign, cancelProduct);
const { bo, gus } = demoIds.accounts;
const ups = demoIds.userProducts;
const userToken = (accountId: string) => platform.mintToken({ scopes: ME, accountId }).access_token;

describe('in process (MSW)', () => {
  test('6: eligible, as a union the site can switch on; sent as a GET with a body', async () => {
    const answer = await client().meRetention.eligibleForCampaign(
      { user_product_id: ups.gusPsp },
      { accessToken: userToken(gus) },
    );
    if (!answer.eligible) throw new Error(`expected eligible, got ${answer.code}`);
    expect(answer.item.code).toBe('premium-summer');
    expect(requestsTo(platform, paths.eligibleForCampaign)).toMatchObject([
      { method: 'GET', status: 200, body: JSON.stringify({ user_product_id: ups.gusPsp }) },
    ]);
  });

  test('6: not eligible is a result, never an error', async () => {
    const answer = await client().meRetention.eligibleForCampaign(
      { user_product_id: ups.boBasic },
      { accessToken: userToken(bo) },
    );
    expect(answer).toEqual({ eligible: false, code: 'not_eligible', message: expect.any(String) });
  });

  test("6: another user's subscription is a NotFoundError; nothing changes", async () => {
    const sdk = client();
    const token = userToken(gus);
    const before = platform.snapshot();
    await expect(
      sdk.meRetention.eligibleForCampaign({ user_product_id: ups.boBasic }, { accessToken: token }),
    ).rejects.toMatchObject({ constructor: NotFoundError, code: 'not_found', field: 'user_product_id' });
    expect(platform.snapshot()).toEqual(before);
  });

  test('6: exactly one of user_product_id and order_id, checked before sending', async () => {
    const both = { user_product_id: ups.gusPsp, order_id: 'x' } as const;
    const sent = client().meRetention.eligibleForCampaign(
      // @ts-expect-error both at once does not compile either
      both,
      { accessToken: userToken(gus) },
    );
    await expect(sent).rejects.toMatchObject({ constructor: RequestValidationError, field: 'order_id' });
    expect(received(paths.eligibleForCampaign)).toEqual([]);
  });

  test('6: a 503 is retried like any read', async () => {
    platform.faults.add({ path: paths.eligibleForCampaign, status: 503 });
    const answer = await client().meRetention.eligibleForCampaign(
      { user_product_id: ups.gusPsp },
      { accessToken: userToken(gus) },
    );
    expect(answer.eligible).toBe(true);
    expect(received(paths.eligibleForCampaign)).toEqual([
      'GET /external/api/v1/me_retention/eligible_for_campaign 503',
      'GET /external/api/v1/me_retention/eligible_for_campaign 200',
    ]);
  });

  test('7: subscribe moves the subscription; twice is a ConflictError already_on_campaign', async () => {
    const sdk = client();
    const token = userToken(gus);
    const { item } = await sdk.meRetention.subscribeToCampaign({ user_product_id: ups.gusPsp }, { accessToken: token });
    expect(item.code).toBe('premium-summer');
    const before = platform.snapshot();
    await expect(
      sdk.meRetention.subscribeToCampaign({ user_product_id: ups.gusPsp }, { accessToken: token }),
    ).rejects.toMatchObject({ constructor: ConflictError, code: 'already_on_campaign' });
    // The second subscribe changes nothing: the subscription stays on the campaign it moved to.
    expect(platform.snapshot()).toEqual(before);
  });

  test('cancel product, then the user is offered the campaign and accepts it: activated again', async () => {
    const sdk = client();
    const token = userToken(gus);
    const { items } = await client({}, ['/external/cancellation_reason/r']).cancellationReasons.list({
      visible_to_end_customer: true,
    });
    await sdk.me.cancelProduct({ id: ups.gusPsp, cancellation_reason_id: items[0]!.id }, { accessToken: token });
    expect(platform.snapshot().user_products.find((u) => u.id === ups.gusPsp)?.state).toBe('cancelled');
    const offer = await sdk.meRetention.eligibleForCampaign({ user_product_id: ups.gusPsp }, { accessToken: token });
    expect(offer.eligible).toBe(true);
    await sdk.meRetention.subscribeToCampaign({ user_product_id: ups.gusPsp }, { accessToken: token });
    expect(platform.snapshot().user_products.find((u) => u.id === ups.gusPsp)?.state).toBe('activated');
  });
});
