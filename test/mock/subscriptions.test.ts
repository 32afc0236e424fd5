/**
 * Transfer subscription (endpoint 5) and reactivate platform-provisioned subscription (endpoint
 * 16), through both adapters with plain fetch.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { IdResponse } from '../../src/schemas/common.js';
import { ADAPTERS, absent, demoIds, expectError, expectOk, expectUnchanged, paths, useAdapter } from './harness.js';

const { anna, bo, dora, eva, gus, hedda, jon } = demoIds.accounts;
const ups = demoIds.userProducts;

describe.each(ADAPTERS)('subscriptions through %s', (kind) => {
  const h = useAdapter(kind);
  let token: string;
  beforeEach(() => {
    token = h.token(['/external/subscription/w', '/external/subscription_system/w']);
  });
  const snapshot = () => h.platform.snapshot();
  const owner = (userProductId: string) => snapshot().user_products.find((u) => u.id === userProductId)?.account_id;

  describe('5. transfer subscription', () => {
    const transfer = (json: unknown) => h.call(paths.transferSubscription, { method: 'PUT', json, token });
    const body = { source_account_id: bo, subscription_id: ups.boBasic, target_account_email: 'anna@example.com' };

    test('200 { id }: the user-product, its orders and payment profiles move; nothing stays on the source', async () => {
      const { id } = expectOk(await transfer(body), IdResponse);
      expect(id).toBe(ups.boBasic);
      const doc = snapshot();
      expect(doc.user_products.find((u) => u.id === id)?.account_id).toBe(anna);
      expect(doc.orders.filter((o) => o.user_product_id === id).map((o) => o.account_id)).toEqual([anna]);
      expect(doc.payment_profiles.filter((p) => p.user_product_id === id).map((p) => p.account_id)).toEqual([anna]);
      const onBo = (rows: { account_id: string; user_product_id?: string; id: string }[]) =>
        rows.filter((r) => r.account_id === bo && (r.user_product_id ?? r.id) === id);
      expect([...onBo(doc.user_products), ...onBo(doc.orders), ...onBo(doc.payment_profiles)]).toEqual([]);
    });

    test('a subscription of a package the target already holds moves too, though endpoints 12 and 13 refuse to make that overlap; 12 can still mend it', async () => {
      const userProducts = h.token(['/external/userproduct/w']);
      const provisioned = await h.call(paths.provisionUserProduct, {
        method: 'POST',
        token: userProducts,
        json: {
          account_id: anna,
          package_code: 'basic-news',
          subscription_type: 'limited',
          valid_from: '2026-01-01T00:00:00Z',
          valid_to: '2036-01-01T00:00:00Z',
        },
      });
      const annas = expectOk(provisioned, IdResponse, 201).id;
      // Hedda's basic-news from the same provision service, 2020 to 2999, moves onto Anna's account.
      const moved = {
        source_account_id: hedda,
        subscription_id: ups.heddaProvisioned,
        target_account_email: 'anna@example.com',
      };
      expectOk(await transfer(moved), IdResponse);
      const change = (patch: object) =>
        h.call(paths.provisionUserProduct, {
          method: 'PUT',
          token: userProducts,
          json: { account_id: anna, product_id: annas, ...patch },
        });
      expectError(
        await expectUnchanged(h.platform, () => change({ valid_to: '2037-01-01T00:00:00Z' })),
        409,
        'already_provisioned',
        'valid_to',
      );
      expectOk(await change({ state: 'deactivated' }), IdResponse);
    });

    test('repeated in the other direction, it restores the original owner and history', async () => {
      const before = snapshot();
      expectOk(await transfer(body), IdResponse);
      expectOk(
        await transfer({
          source_account_id: anna,
          subscription_id: ups.boBasic,
          target_account_email: 'bo@example.com',
        }),
        IdResponse,
      );
      const after = snapshot();
      const strip = (doc: typeof before) => ({
        ...doc,
        access_tokens: [],
        user_products: doc.user_products.map(({ updated: _, ...u }) => u),
      });
      expect(strip(after)).toEqual(strip(before));
    });

    test("an invoice subscription's payment profile moves with it, keeping its period and amount", async () => {
      const profileOf = () => snapshot().payment_profiles.filter((p) => p.user_product_id === ups.jonLimited);
      expect(profileOf()).toEqual([
        expect.objectContaining({
          account_id: jon,
          payment_option: 'invoice',
          period_id: demoIds.periods.premiumInvoice,
          amount: 990,
        }),
      ]);
      expectOk(
        await transfer({
          source_account_id: jon,
          subscription_id: ups.jonLimited,
          target_account_email: 'anna@example.com',
        }),
        IdResponse,
      );
      expect(profileOf()).toEqual([
        expect.objectContaining({ account_id: anna, period_id: demoIds.periods.premiumInvoice, amount: 990 }),
      ]);
    });

    test('the target e-mail address is matched whatever its letter case', async () => {
      expectOk(await transfer({ ...body, target_account_email: 'ANNA@Example.com' }), IdResponse);
      expect(owner(ups.boBasic)).toBe(anna);
    });

    test('the new owner sees it at once: endpoint 9 answers already_subscribed for the target', async () => {
      expectOk(await transfer(body), IdResponse);
      const t9 = h.token(['/external/order_validation/r']);
      const answer = await h.call(paths.validateOrder, {
        token: t9,
        query: { product_code: 'basic-news', account_id: anna },
      });
      expect((answer.body as { item: { reason: string } }).item.reason).toBe('already_subscribed');
    });

    test.each([
      [
        'the source account is missing',
        { source_account_id: absent.account },
        404,
        'does_not_exist',
        'unspecified_field',
      ],
      [
        "the source account is another organisation's",
        { source_account_id: dora },
        404,
        'does_not_exist',
        'unspecified_field',
      ],
      [
        'the subscription is missing',
        { subscription_id: absent.userProduct },
        404,
        'does_not_exist',
        'unspecified_field',
      ],
      [
        "the subscription is another organisation's",
        { subscription_id: ups.doraComplex },
        404,
        'does_not_exist',
        'unspecified_field',
      ],
      [
        'the subscription is not on the source account',
        { subscription_id: ups.evaSummerCancelled },
        404,
        'does_not_exist',
        'unspecified_field',
      ],
      [
        'no account has the target e-mail',
        { target_account_email: 'nobody@example.com' },
        404,
        'account_not_found',
        'target_account_email',
      ],
      [
        "the target is another organisation's account",
        { target_account_email: 'dora@example.com' },
        404,
        'account_not_found',
        'target_account_email',
      ],
      [
        'the target e-mail address is malformed',
        { target_account_email: 'not-an-email' },
        400,
        'invalid_parameter',
        'target_account_email',
      ],
      [
        'the target is the source account',
        { target_account_email: 'bo@example.com' },
        400,
        'invalid_parameter',
        'target_account_email',
      ],
      [
        'the target account is archived',
        { target_account_email: 'frank@example.com' },
        409,
        'invalid_state',
        'target_account_email',
      ],
      [
        'the subscription is paid through psp',
        { source_account_id: gus, subscription_id: ups.gusPsp },
        409,
        'invalid_state',
        'subscription_id',
      ],
      ['a missing field', { subscription_id: undefined }, 400, 'invalid_parameter', 'subscription_id'],
      ['an unknown field', { keep_history: true }, 400, 'unknown_parameter', 'keep_history'],
    ])('refuses when %s, and moves nothing', async (_, patch, status, code, field) => {
      const answer = await expectUnchanged(h.platform, () => transfer({ ...body, ...patch }));
      expectError(answer, status, code, field);
    });

    test.each([
      ['with atext specials (RFC 5322)', "#!$%&'*+/=?^_`{|}~-@example.org", "#!$%&'*+/=?^_`{|}~-@EXAMPLE.org"],
      ['internationalised (RFC 6531)', 'åsa.ström@exempel.se', 'ÅSA.STRÖM@exempel.se'],
      ['internationalised in the domain too', 'ünal@bücher.example', 'ünal@bücher.example'],
      [
        'whose top-level domain is internationalised, in its ASCII form',
        'anna@example.xn--p1ai',
        'anna@example.xn--p1ai',
      ],
    ])('the target account is identified by a valid e-mail address %s: %s', async (_, email, asSent) => {
      const doc = snapshot();
      const target = doc.accounts.find((a) => a.id === anna)!;
      target.email = email;
      h.platform.restore(doc);
      expectOk(await transfer({ ...body, target_account_email: asSent }), IdResponse);
      expect(owner(ups.boBasic)).toBe(anna);
    });

    test.each([
      ['no @', 'anna.example.com'],
      ['two @', 'anna@bo@example.com'],
      ['an empty local part', '@example.com'],
      ['an empty domain', 'anna@'],
      ['a domain without a dot', 'anna@localhost'],
      ['an empty domain label', 'anna@example..com'],
      ['a local part with two dots in a row', 'an..na@example.com'],
      ['a local part that ends with a dot', 'anna.@example.com'],
      ['white space', 'an na@example.com'],
      ['a no-break space', 'åsa\u00a0@example.se'],
      ['a line separator', 'åsa\u2028@example.se'],
      ['a control character', 'anna\u0000@example.com'],
      ['a C1 control character', 'åsa\u0085@example.se'],
      ['a lone surrogate', 'åsa\ud800@example.se'],
      ['a quoted local part', '"an na"@example.com'],
      ['an address literal', 'anna@[192.0.2.1]'],
    ])(
      'the target e-mail address with %s is an invalid e-mail format: 400 invalid_parameter, nothing moves',
      async (_, email) => {
        const answer = await expectUnchanged(h.platform, () => transfer({ ...body, target_account_email: email }));
        const error = expectError(answer, 400, 'invalid_parameter', 'target_account_email');
        expect(error.message).toBe('Parameter must be a valid e-mail address');
      },
    );

    test('the source account is checked before the subscription, and both before the target', async () => {
      const answer = await expectUnchanged(h.platform, () =>
        transfer({
          source_account_id: absent.account,
          subscription_id: absent.userProduct,
          target_account_email: 'nobody@example.com',
        }),
      );
      const error = expectError(answer, 404, 'does_not_exist', 'unspecified_field');
      expect(error.message).toBe('The source account does not exist');
    });

    test("another organisation's client cannot move ours: our source account is absent to it", async () => {
      const complex = h.token(['/external/subscription/w'], demoIds.clients.complex.clientId);
      const answer = await expectUnchanged(h.platform, () =>
        h.call(paths.transferSubscription, {
          method: 'PUT',
          json: { source_account_id: dora, subscription_id: ups.boBasic, target_account_email: 'dora@example.com' },
          token: complex,
        }),
      );
      const error = expectError(answer, 404, 'does_not_exist', 'unspecified_field');
      expect(error.message).toBe('The subscription does not exist on the source account');
    });
  });

  describe('16. reactivate platform-provisioned subscription', () => {
    const reactivate = (json: unknown) => h.call(paths.reactivateSubscription, { method: 'PUT', json, token });

    test('200 { id }: a cancelled user-product still in its term is activated again', async () => {
      const { id } = expectOk(
        await reactivate({ account_id: eva, user_product_id: ups.evaSummerCancelled }),
        IdResponse,
      );
      expect(id).toBe(ups.evaSummerCancelled);
      expect(snapshot().user_products.find((u) => u.id === id)).toMatchObject({
        state: 'activated',
        valid_to: '2999-12-31T23:59:59Z',
      });
    });

    test.each([
      ['an absent account', { account_id: absent.account }, 404, 'not_found', 'account_id'],
      ["another organisation's account", { account_id: dora }, 404, 'not_found', 'account_id'],
      ['an absent user-product', { user_product_id: absent.userProduct }, 404, 'not_found', 'user_product_id'],
      [
        "another organisation's user-product",
        { user_product_id: ups.doraComplex },
        404,
        'not_found',
        'user_product_id',
      ],
      [
        "another account's user-product",
        { account_id: anna },
        409,
        'user_product_not_belong_to_account',
        'user_product_id',
      ],
      [
        'a user-product of a provision service',
        { account_id: hedda, user_product_id: ups.heddaProvisioned },
        409,
        'user_product_not_platform_provisioned',
        'user_product_id',
      ],
      [
        'a deactivated user-product of another provision service',
        { account_id: hedda, user_product_id: ups.heddaOtherProvisionDeactivated },
        409,
        'user_product_not_platform_provisioned',
        'user_product_id',
      ],
      [
        'an activated user-product',
        { account_id: bo, user_product_id: ups.boBasic },
        409,
        'invalid_state',
        'user_product_id',
      ],
      [
        'a deactivated user-product',
        { account_id: anna, user_product_id: ups.annaPremiumDeactivated },
        409,
        'invalid_state',
        'user_product_id',
      ],
      [
        'a cancelled user-product whose term has ended',
        { user_product_id: ups.evaBasicEnded },
        409,
        'invalid_state',
        'user_product_id',
      ],
      ['a malformed id', { user_product_id: 'x' }, 400, 'invalid_parameter', 'user_product_id'],
      ['an unknown field', { state: 'activated' }, 400, 'unknown_parameter', 'state'],
    ])('refuses %s, and changes nothing', async (_, patch, status, code, field) => {
      const answer = await expectUnchanged(h.platform, () =>
        reactivate({ account_id: eva, user_product_id: ups.evaSummerCancelled, ...patch }),
      );
      expectError(answer, status, code, field);
    });

    test('a cancelled user-product of an archived account: 409 invalid_state naming account_id, after the user-product\u2019s checks; nothing changes', async () => {
      const doc = snapshot();
      const frank = demoIds.accounts.frank;
      const cancelled = doc.user_products.find((u) => u.id === ups.evaSummerCancelled)!;
      doc.user_products.push({ ...cancelled, id: 'd000000000000000000000f1', account_id: frank, order_id: null });
      h.platform.restore(doc);
      const answer = await expectUnchanged(h.platform, () =>
        reactivate({ account_id: frank, user_product_id: 'd000000000000000000000f1' }),
      );
      expect(expectError(answer, 409, 'invalid_state', 'account_id').message).toBe('The account is archived');
    });

    test('the account is checked before the user-product: both absent is 404 on account_id', async () => {
      const answer = await expectUnchanged(h.platform, () =>
        reactivate({ account_id: absent.account, user_product_id: absent.userProduct }),
      );
      expectError(answer, 404, 'not_found', 'account_id');
    });

    test('when several hold, belonging comes first, then the provision service, then the state', async () => {
      // Hedda's user-product, asked for on Eva: it is another account's (and of a provision service, and activated).
      const answer = await expectUnchanged(h.platform, () =>
        reactivate({ account_id: eva, user_product_id: ups.heddaProvisioned }),
      );
      expectError(answer, 409, 'user_product_not_belong_to_account', 'user_product_id');
      // Hedda's own: of a provision service, and activated.
      expectError(
        await expectUnchanged(h.platform, () =>
          reactivate({ account_id: hedda, user_product_id: ups.heddaProvisioned }),
        ),
        409,
        'user_product_not_platform_provisioned',
        'user_product_id',
      );
    });

    test('a cancelled term that ends on the platform clock is refused at its end: 409 invalid_state', async () => {
      h.platform.clock.set('2999-12-31T23:59:59Z');
      token = h.token(['/external/subscription_system/w']);
      const answer = await expectUnchanged(h.platform, () =>
        reactivate({ account_id: eva, user_product_id: ups.evaSummerCancelled }),
      );
      expectError(answer, 409, 'invalid_state', 'user_product_id');
    });
  });
});
