/**
 * Provision user-product (endpoint 13) and update user-product (endpoint 12), through both
 * adapters with plain fetch: each error of the spec and each written choice, and the state after.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { IdResponse } from '../../src/schemas/common.js';
import { ADAPTERS, absent, demoIds, expectError, expectOk, expectUnchanged, paths, useAdapter } from './harness.js';

const SCOPE = '/external/userproduct/w';
const { anna, carl, dora, frank, hedda, gus } = demoIds.accounts;
const ups = demoIds.userProducts;
const FROM = '2030-01-01T00:00:00Z';
const TO = '2031-01-01T00:00:00Z';

describe.each(ADAPTERS)('user-products through %s', (kind) => {
  const h = useAdapter(kind);
  const token = (clientId?: string) => h.token([SCOPE], clientId);
  /** The demo client's token, minted before each test (a refused request must change nothing after it). */
  let demo: string;
  beforeEach(() => {
    demo = token();
  });
  const provision = (json: unknown, t = demo) => h.call(paths.provisionUserProduct, { method: 'POST', json, token: t });
  const update = (json: unknown, t = demo) => h.call(paths.provisionUserProduct, { method: 'PUT', json, token: t });
  const userProduct = (id: string) => h.platform.snapshot().user_products.find((u) => u.id === id);
  /** Bodies no route could read: garbage JSON, and JSON sent as text/plain. */
  const unreadable = (method: string, t: string) => [
    () =>
      h.call(paths.provisionUserProduct, {
        method,
        body: '{"account_id":',
        headers: { 'content-type': 'application/json' },
        token: t,
      }),
    () =>
      h.call(paths.provisionUserProduct, { method, body: '{}', headers: { 'content-type': 'text/plain' }, token: t }),
  ];
  const body = {
    account_id: anna,
    package_code: 'premium-digital',
    subscription_type: 'recurring',
    valid_from: FROM,
    valid_to: TO,
  };

  describe('13. provision user-product', () => {
    test('201 { id }: an activated user-product of the package, controlled by the caller\u2019s provision service', async () => {
      const { id } = expectOk(await provision(body), IdResponse, 201);
      expect(userProduct(id)).toMatchObject({
        account_id: anna,
        product_id: demoIds.products.premiumDigital,
        product_code: 'premium-digital',
        provision_service: 'demo-provision',
        subscription_type: 'recurring',
        state: 'activated',
        valid_from: FROM,
        valid_to: TO,
        // Controlled by a provision service, it started externally when it became valid.
        external_start_date: FROM,
        order_id: null,
      });
      // Provisioning writes no order: the provision service bills its own customers.
      expect(h.platform.snapshot().orders.filter((o) => o.user_product_id === id)).toEqual([]);
    });

    test('a campaign can be provisioned too', async () => {
      const { id } = expectOk(await provision({ ...body, package_code: 'premium-summer' }), IdResponse, 201);
      expect(userProduct(id)?.product_id).toBe(demoIds.products.premiumSummer);
    });

    test('a client without a provision service: 400 configuration_error, whatever the body', async () => {
      const t = token(demoIds.clients.unprovisioned.clientId);
      for (const json of [body, { nonsense: true }, { ...body, account_id: absent.account }]) {
        const answer = await expectUnchanged(h.platform, () => provision(json, t));
        expectError(answer, 400, 'configuration_error');
      }
      for (const send of unreadable('POST', t))
        expectError(await expectUnchanged(h.platform, send), 400, 'configuration_error');
    });

    test('a client whose provision service is empty has none: 400 configuration_error, saying what to do', async () => {
      const doc = h.platform.snapshot();
      const client = doc.clients.find((c) => c.client_id === demoIds.clients.demo.clientId);
      if (!client) throw new Error('the demo seed has the demo client');
      client.provision_service = '';
      h.platform.restore(doc);
      const t = token();
      const answer = await expectUnchanged(h.platform, () => provision(body, t));
      expect(expectError(answer, 400, 'configuration_error').message).toBe(
        'The API client has no provision service: ask the operator to configure one',
      );
    });

    test.each([
      ['an absent account', { account_id: absent.account }, 404, 'not_found', 'account_id'],
      ["another organisation's account", { account_id: dora }, 404, 'not_found', 'account_id'],
      ['an absent package', { package_code: 'no-such-package' }, 404, 'not_found', 'package_code'],
      ['a plain product (not a package)', { package_code: 'digital-news' }, 404, 'not_found', 'package_code'],
      ['an inactive package', { package_code: 'legacy-package' }, 404, 'not_found', 'package_code'],
      ["another organisation's package", { package_code: 'complex-bundle' }, 404, 'not_found', 'package_code'],
      ['valid_from after valid_to', { valid_from: TO, valid_to: FROM }, 400, 'invalid_parameter', 'valid_to'],
      ['valid_from equal to valid_to', { valid_to: FROM }, 400, 'invalid_parameter', 'valid_to'],
      [
        'a window that ends a tenth of a microsecond before it starts (one millisecond to Date.parse)',
        { valid_from: '2030-01-01T00:00:00.0002Z', valid_to: '2030-01-01T00:00:00.0001Z' },
        400,
        'invalid_parameter',
        'valid_to',
      ],
      [
        'valid_to the same instant as valid_from, written otherwise (.5Z and 01:00:00.500+01:00)',
        { valid_from: '2030-01-01T00:00:00.5Z', valid_to: '2030-01-01T01:00:00.500+01:00' },
        400,
        'invalid_parameter',
        'valid_to',
      ],
      ['a missing field', { subscription_type: undefined }, 400, 'invalid_parameter', 'subscription_type'],
      ['an unknown field', { state: 'activated' }, 400, 'unknown_parameter', 'state'],
      ['a malformed account id', { account_id: 'x' }, 400, 'invalid_parameter', 'account_id'],
      ['a package code of 51 characters', { package_code: 'a'.repeat(51) }, 400, 'invalid_parameter', 'package_code'],
      ['a date without offset', { valid_from: '2030-01-01T00:00:00' }, 400, 'invalid_parameter', 'valid_from'],
      [
        'a date-time of 36 characters (a fraction beyond nanoseconds)',
        { valid_from: '2030-01-01T00:00:00.1234567890+01:00' },
        400,
        'invalid_parameter',
        'valid_from',
      ],
    ])('refuses %s, and creates nothing', async (_, patch, status, code, field) => {
      const answer = await expectUnchanged(h.platform, () => provision({ ...body, ...patch }));
      expectError(answer, status, code, field);
    });

    test('a window shorter than a millisecond is a window: compared to the fraction each end gives', async () => {
      const window = { valid_from: '2030-01-01T00:00:00.0001Z', valid_to: '2030-01-01T01:00:00.0002+01:00' };
      const { id } = expectOk(await provision({ ...body, ...window }), IdResponse, 201);
      expect(userProduct(id)).toMatchObject(window);
      // It overlaps a second provisioning of the package that starts inside it, to the tenth of a microsecond.
      const inside = { valid_from: '2030-01-01T00:00:00.00015Z', valid_to: TO };
      expectError(
        await expectUnchanged(h.platform, () => provision({ ...body, ...inside })),
        409,
        'already_provisioned',
        'package_code',
      );
      // And not one that starts where it ends.
      const after = { valid_from: '2030-01-01T00:00:00.0002Z', valid_to: TO };
      expectOk(await provision({ ...body, ...after }), IdResponse, 201);
    });

    test.each(['subscription_type', 'valid_from', 'account_id'])(
      'a missing %s is told "Parameter is required", as every missing field is, and creates nothing',
      async (field) => {
        const answer = await expectUnchanged(h.platform, () => provision({ ...body, [field]: undefined }));
        expect(expectError(answer, 400, 'invalid_parameter', field).message).toBe('Parameter is required');
      },
    );

    test('an archived account is refused as endpoints 4 and 5 refuse one: 409 invalid_state account_id, and nothing is created', async () => {
      const answer = await expectUnchanged(h.platform, () => provision({ ...body, account_id: frank }));
      expect(expectError(answer, 409, 'invalid_state', 'account_id').message).toBe('The account is archived');
    });

    test('the archived account is told after the lookups: an absent package is still 404 not_found package_code', async () => {
      const answer = await expectUnchanged(h.platform, () =>
        provision({ ...body, account_id: frank, package_code: 'no-such-package' }),
      );
      expectError(answer, 404, 'not_found', 'package_code');
    });

    test('an inactive account that is not archived may still be provisioned: 201', async () => {
      expect(h.platform.snapshot().accounts.find((a) => a.id === carl)?.status).toBe('inactive');
      const { id } = expectOk(await provision({ ...body, account_id: carl }), IdResponse, 201);
      expect(userProduct(id)).toMatchObject({ account_id: carl, state: 'activated' });
    });

    test('a second provisioning of the package for the same account and time: 409 already_provisioned', async () => {
      expectOk(await provision(body), IdResponse, 201);
      const answer = await expectUnchanged(h.platform, () =>
        provision({ ...body, valid_from: '2030-06-01T00:00:00Z', valid_to: '2030-07-01T00:00:00Z' }),
      );
      expectError(answer, 409, 'already_provisioned', 'package_code');
    });

    test('the next term of the same package (no overlap) is a new user-product', async () => {
      const first = expectOk(await provision(body), IdResponse, 201);
      const next = expectOk(
        await provision({ ...body, valid_from: TO, valid_to: '2032-01-01T00:00:00Z' }),
        IdResponse,
        201,
      );
      expect(next.id).not.toBe(first.id);
    });

    test('409 already_provisioned names the first overlapping user-product in the state document, whatever was updated since', async () => {
      const first = expectOk(await provision(body), IdResponse, 201);
      const second = expectOk(
        await provision({ ...body, valid_from: TO, valid_to: '2032-01-01T00:00:00Z' }),
        IdResponse,
        201,
      );
      // The second made to overlap the first in a state document (endpoint 12 refuses that), then the first updated.
      const overlapped = h.platform.snapshot();
      const kept = overlapped.user_products.find((u) => u.id === second.id);
      if (kept) kept.valid_from = '2030-06-01T00:00:00Z';
      h.platform.restore(overlapped);
      expectOk(await update({ account_id: anna, product_id: first.id, subscription_type: 'limited' }), IdResponse);
      const answer = await expectUnchanged(h.platform, () =>
        provision({ ...body, valid_from: '2030-07-01T00:00:00Z', valid_to: '2030-08-01T00:00:00Z' }),
      );
      expect(expectError(answer, 409, 'already_provisioned', 'package_code').message).toContain(first.id);
    });

    test('the scope /external/userproduct/w is required: 403 insufficient_scope', async () => {
      const reader = h.token(['/external/product/r']);
      const answer = await expectUnchanged(h.platform, () => provision(body, reader));
      expectError(answer, 403, 'insufficient_scope');
    });
  });

  describe('12. update user-product', () => {
    const change = (patch: object) => update({ account_id: hedda, product_id: ups.heddaProvisioned, ...patch });

    test('200 { id } of the user-product: the state changes, updated moves on the platform clock', async () => {
      h.platform.clock.set('2030-05-05T00:00:00Z');
      demo = token(); // a token of the new time
      const { id } = expectOk(await change({ state: 'deactivated' }), IdResponse);
      expect(id).toBe(ups.heddaProvisioned);
      expect(userProduct(id)).toMatchObject({ state: 'deactivated' });
      expect(userProduct(id)?.updated.slice(0, 10)).toBe('2030-05-05');
      expectOk(await change({ state: 'activated' }), IdResponse);
      expect(userProduct(id)?.state).toBe('activated');
    });

    test('subscription_type, valid_from and valid_to change in the same call', async () => {
      expectOk(
        await change({ subscription_type: 'limited', valid_from: FROM, valid_to: TO, state: 'deactivated' }),
        IdResponse,
      );
      expect(userProduct(ups.heddaProvisioned)).toMatchObject({
        subscription_type: 'limited',
        valid_from: FROM,
        valid_to: TO,
        state: 'deactivated',
      });
    });

    test('a client without a provision service: 400 configuration_error, whatever the body', async () => {
      const t = token(demoIds.clients.unprovisioned.clientId);
      for (const json of [
        { account_id: hedda, product_id: ups.heddaProvisioned, state: 'deactivated' },
        { account_id: absent.account, product_id: ups.heddaProvisioned, state: 'deactivated' },
        { nonsense: true },
      ]) {
        const answer = await expectUnchanged(h.platform, () => update(json, t));
        expectError(answer, 400, 'configuration_error');
      }
      for (const send of unreadable('PUT', t))
        expectError(await expectUnchanged(h.platform, send), 400, 'configuration_error');
    });

    test('a date-time is at most 35 characters, a fraction to nanoseconds and an offset: one more is 400 invalid_parameter, and nothing changes', async () => {
      expectOk(await change({ valid_to: '2031-01-01T00:00:00.123456789+01:00' }), IdResponse);
      expect(userProduct(ups.heddaProvisioned)?.valid_to).toBe('2031-01-01T00:00:00.123456789+01:00');
      const answer = await expectUnchanged(h.platform, () =>
        change({ valid_to: `2031-01-01T00:00:00.${'1'.repeat(200_000)}Z` }),
      );
      expect(expectError(answer, 400, 'invalid_parameter', 'valid_to').message).toBe(
        'Parameter size must be at most 35',
      );
    });

    test.each([
      ['an absent account', { account_id: absent.account }, 404, 'not_found', 'account_id'],
      ["another organisation's account", { account_id: dora }, 404, 'not_found', 'account_id'],
      ['an absent user-product', { product_id: absent.userProduct }, 404, 'not_found', 'product_id'],
      ["another account's user-product", { account_id: anna }, 404, 'not_found', 'product_id'],
      [
        'a user-product of another provision service',
        { account_id: gus, product_id: ups.gusOtherProvision },
        403,
        'not_product_owner',
        'product_id',
      ],
      [
        'a deactivated user-product of another provision service',
        { account_id: hedda, product_id: ups.heddaOtherProvisionDeactivated, state: 'activated' },
        403,
        'not_product_owner',
        'product_id',
      ],
      [
        "another organisation's user-product, named on an account of ours",
        { product_id: ups.doraComplex },
        404,
        'not_found',
        'product_id',
      ],
      [
        'a user-product controlled by the platform',
        { account_id: gus, product_id: ups.gusPsp },
        403,
        'not_product_owner',
        'product_id',
      ],
      ['state cancelled (not settable here)', { state: 'cancelled' }, 400, 'invalid_parameter', 'state'],
      ['a window that ends before it starts', { valid_from: TO, valid_to: FROM }, 400, 'invalid_parameter', 'valid_to'],
      [
        'a valid_to before the stored valid_from',
        { valid_to: '2019-01-01T00:00:00Z' },
        400,
        'invalid_parameter',
        'valid_to',
      ],
      ['an unknown field', { package_code: 'x' }, 400, 'unknown_parameter', 'package_code'],
    ])('refuses %s, and changes nothing', async (_, patch, status, code, field) => {
      const answer = await expectUnchanged(h.platform, () => change({ state: 'deactivated', ...patch }));
      expectError(answer, status, code, field);
    });

    describe('a change may not make the overlap endpoint 13 refuses', () => {
      /** Anna's premium-digital for FROM to TO, and its next term, TO to 2032, both provisioned by the demo client. */
      async function twoTerms() {
        const first = expectOk(await provision(body), IdResponse, 201);
        const next = expectOk(
          await provision({ ...body, valid_from: TO, valid_to: '2032-01-01T00:00:00Z' }),
          IdResponse,
          201,
        );
        return { first: first.id, next: next.id };
      }
      const on = (product_id: string, patch: object) => update({ account_id: anna, product_id, ...patch });

      test('a valid_from moved into the other term: 409 already_provisioned naming valid_from and the other; nothing changes', async () => {
        const { first, next } = await twoTerms();
        const answer = await expectUnchanged(h.platform, () => on(next, { valid_from: '2030-06-01T00:00:00Z' }));
        expect(expectError(answer, 409, 'already_provisioned', 'valid_from').message).toContain(first);
      });

      test('a valid_to stretched into the next term: 409 already_provisioned naming valid_to; nothing changes', async () => {
        const { first } = await twoTerms();
        const answer = await expectUnchanged(h.platform, () => on(first, { valid_to: '2031-01-01T00:00:00.001Z' }));
        expectError(answer, 409, 'already_provisioned', 'valid_to');
      });

      test('a deactivated term activated again over a live one: 409 already_provisioned naming state; nothing changes', async () => {
        const first = expectOk(await provision(body), IdResponse, 201).id;
        expectOk(await on(first, { state: 'deactivated' }), IdResponse);
        expectOk(await provision(body), IdResponse, 201); // the first is no longer live
        const answer = await expectUnchanged(h.platform, () => on(first, { state: 'activated' }));
        expectError(answer, 409, 'already_provisioned', 'state');
      });

      test('terms that only meet, a window moved clear of the other, and a deactivation are not refused', async () => {
        const { first, next } = await twoTerms();
        expectOk(await on(first, { valid_from: '2029-01-01T00:00:00Z', valid_to: TO }), IdResponse);
        expectOk(await on(next, { valid_to: '2033-01-01T00:00:00Z' }), IdResponse);
        expectOk(await on(next, { state: 'deactivated', valid_from: '2030-06-01T00:00:00Z' }), IdResponse);
        expect(userProduct(next)).toMatchObject({ state: 'deactivated', valid_from: '2030-06-01T00:00:00Z' });
      });

      test('an overlap a state document holds can still be mended: a change of subscription_type alone is not judged', async () => {
        const { next } = await twoTerms();
        const overlapped = h.platform.snapshot();
        const kept = overlapped.user_products.find((u) => u.id === next);
        if (kept) kept.valid_from = '2030-06-01T00:00:00Z';
        h.platform.restore(overlapped);
        expectOk(await on(next, { subscription_type: 'limited' }), IdResponse);
        expect(userProduct(next)?.subscription_type).toBe('limited');
      });
    });

    test('a body with no change at all: 400 invalid_parameter naming subscription_type', async () => {
      const answer = await expectUnchanged(h.platform, () =>
        update({ account_id: hedda, product_id: ups.heddaProvisioned }),
      );
      const error = expectError(answer, 400, 'invalid_parameter', 'subscription_type');
      expect(error.message).toBe('One of subscription_type, state, valid_from or valid_to is required');
    });

    test('the account is checked before the user-product, and both before the owner', async () => {
      const answer = await expectUnchanged(h.platform, () =>
        update({ account_id: absent.account, product_id: ups.gusOtherProvision, state: 'deactivated' }),
      );
      expectError(answer, 404, 'not_found', 'account_id');
    });

    test.each([
      ["another provision service's user-product on another account", ups.gusOtherProvision],
      ['an absent user-product', absent.userProduct],
    ])('404 product_id comes before 403 not_product_owner: %s', async (_, productId) => {
      const answer = await expectUnchanged(h.platform, () =>
        update({ account_id: hedda, product_id: productId, state: 'deactivated' }),
      );
      expectError(answer, 404, 'not_found', 'product_id');
    });

    test("another organisation's client finds none of ours: its user-product named on its own account is absent", async () => {
      // Complex Media's client has a provision service of its own; Hedda's user-product is not of its organisation.
      const complex = token(demoIds.clients.complex.clientId);
      const answer = await expectUnchanged(h.platform, () =>
        update({ account_id: dora, product_id: ups.heddaProvisioned, state: 'deactivated' }, complex),
      );
      expectError(answer, 404, 'not_found', 'product_id');
    });

    test('an update is visible to endpoint 9: a deactivated user-product no longer blocks a purchase', async () => {
      const token9 = h.token(['/external/order_validation/r']);
      const validate = async () =>
        (
          await h.call(paths.validateOrder, {
            token: token9,
            query: { product_code: 'basic-news', account_id: hedda },
          })
        ).body as { item: { reason: string | null } };
      expect((await validate()).item.reason).toBe('already_subscribed');
      expectOk(await change({ state: 'deactivated' }), IdResponse);
      expect((await validate()).item.reason).toBeNull();
    });
  });
});
