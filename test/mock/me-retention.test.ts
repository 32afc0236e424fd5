/**
 * Retention (endpoints 6 and 7) and cancel product (beyond the spec), through both adapters.
 * Endpoint 6 is a GET whose parameters travel in a JSON body: fetch cannot send it, so these tests
 * send it with node:http(s), which MSW intercepts in process and the HTTP server reads.
 */
import { createRequire } from 'node:module';
import { beforeEach, describe, expect, test } from 'vitest';
import type { StateDocument } from '../../mock/index.js';
import * as e from '../../src/endpoints.js';
import { pathOf } from '../../src/endpoints.js';
import { IdResponse } from '../../src/schemas/common.js';
import { DocumentedMeV3Response } from '../../src/schemas/me.js';
import { EligibleAnswer, NotEligibleAnswer, SubscribeToCampaignResponse } from '../../src/schemas/me-retention.js';
import {
  ADAPTERS,
  type Answer,
  absent,
  demoIds,
  expectError,
  expectOk,
  expectUnchanged,
  type Harness,
  USER_SCOPES,
  useAdapter,
} from './harness.js';

// The CommonJS modules themselves: MSW intercepts their `request` (an ESM namespace keeps the original).
const require = createRequire(import.meta.url);
const http = require('node:http') as typeof import('node:http');
const https = require('node:https') as typeof import('node:https');

const { bo, eva, gus, hedda, jon, anna } = demoIds.accounts;
const ups = demoIds.userProducts;
const reasons = demoIds.cancellationReasons;
const paths = {
  eligible: pathOf(e.eligibleForCampaign, 'stage'),
  subscribe: pathOf(e.subscribeToCampaign, 'stage'),
  cancel: pathOf(e.cancelProduct, 'stage'),
  meV3: pathOf(e.getMeDocumented, 'stage'),
};

/** A GET with a JSON body, over node:http(s): what endpoint 6 needs and fetch cannot do. */
function getWithBody(h: Harness, path: string, json: unknown, token: string, raw?: string): Promise<Answer> {
  const url = new URL(`${h.origin()}${path}`);
  const body = raw ?? JSON.stringify(json);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method: 'GET',
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
          resolve({ status: res.statusCode ?? 0, headers, body: text ? JSON.parse(text) : null, text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(ADAPTERS)('retention through %s', (kind) => {
  const h = useAdapter(kind);
  const user = (accountId: string, scopes = USER_SCOPES) => h.platform.mintToken({ scopes, accountId }).access_token;
  const tokens: Record<string, string> = {};
  beforeEach(() => {
    for (const [name, id] of Object.entries({ bo, eva, gus, hedda, jon, anna })) tokens[name] = user(id);
  });
  const eligible = (json: unknown, token: string) => getWithBody(h, paths.eligible, json, token);
  const subscribe = (json: unknown, token: string) => h.call(paths.subscribe, { method: 'PUT', json, token });
  const userProduct = (id: string) => h.platform.snapshot().user_products.find((u) => u.id === id);
  /** The state after a change to the campaign `premium-summer`, made through a state restore. */
  const changeCampaign = (change: (campaign: StateDocument['products'][number]) => void) => {
    const doc = h.platform.snapshot();
    change(doc.products.find((p) => p.id === demoIds.products.premiumSummer)!);
    h.platform.restore(doc);
  };
  const takeCampaignOffSale = () =>
    changeCampaign((c) => {
      c.valid_from = '1999-01-01T00:00:00Z';
      c.valid_to = '2000-01-01T00:00:00Z';
    });
  /** A user-product as the user reads it through `GET /external/api/v3/me`. */
  const readThroughMe = async (id: string, token: string) =>
    expectOk(await h.call(paths.meV3, { token }), DocumentedMeV3Response).item.user_products.find((u) => u.id === id);

  describe('6. eligible for campaign (a GET with a JSON body)', () => {
    test('eligible: { item } with the campaign, by user_product_id', async () => {
      const { item } = expectOk(await eligible({ user_product_id: ups.gusPsp }, tokens.gus!), EligibleAnswer);
      expect(item).toEqual({
        id: demoIds.products.premiumSummer,
        code: 'premium-summer',
        name: 'Stay with Premium Digital at half price',
        description: 'Keep every article and the e-paper for 49 a month.',
        products: ['digital-news', 'e-paper'],
      });
    });

    test('by order_id: the order of the orders collection names the user-product', async () => {
      const order = h.platform.snapshot().orders.find((o) => o.user_product_id === ups.gusPsp)!;
      expect(expectOk(await eligible({ order_id: order.id }, tokens.gus!), EligibleAnswer).item.code).toBe(
        'premium-summer',
      );
    });

    test.each<[string, string, string, string]>([
      ['a limited subscription', 'jon', ups.jonLimited, 'not_recurring'],
      ['a subscription of a provision service', 'hedda', ups.heddaProvisioned, 'not_platform_provisioned'],
      ['a deactivated subscription', 'anna', ups.annaPremiumDeactivated, 'not_active'],
      ['a cancelled subscription whose term has ended', 'eva', ups.evaBasicEnded, 'not_active'],
      ['a subscription already moved by a retention offer', 'jon', ups.jonRetained, 'already_on_campaign'],
      ['a subscription already on the campaign on offer', 'eva', ups.evaSummerCancelled, 'already_on_campaign'],
      ['a package with no offer', 'bo', ups.boBasic, 'not_eligible'],
    ])('not eligible, %s: 200 { code, message }', async (_, name, id, code) => {
      const answer = await expectUnchanged(h.platform, () => eligible({ user_product_id: id }, tokens[name]!));
      expect(expectOk(answer, NotEligibleAnswer)).toEqual({ code, message: expect.any(String) });
      expect(answer.body).not.toHaveProperty('item');
    });

    test('not eligible, the campaign on offer not on sale: 200 { code: not_eligible, message }', async () => {
      takeCampaignOffSale();
      const answer = await expectUnchanged(h.platform, () => eligible({ user_product_id: ups.gusPsp }, tokens.gus!));
      expect(expectOk(answer, NotEligibleAnswer)).toEqual({
        code: 'not_eligible',
        message: 'The campaign on offer for this subscription is not on sale now',
      });
      expect(answer.body).not.toHaveProperty('item');
    });

    test.each([
      ["another user's subscription", 'gus', { user_product_id: ups.boBasic }, 404, 'not_found', 'user_product_id'],
      ['an absent subscription', 'gus', { user_product_id: 'nope' }, 404, 'not_found', 'user_product_id'],
      ["another user's order", 'gus', { order_id: 'order-0002' }, 404, 'not_found', 'order_id'],
      ['an absent order', 'gus', { order_id: 'order-none' }, 404, 'not_found', 'order_id'],
      ['neither parameter', 'gus', {}, 400, 'invalid_parameter', 'user_product_id'],
      ['both parameters', 'gus', { user_product_id: ups.gusPsp, order_id: 'x' }, 400, 'invalid_parameter', 'order_id'],
      ['an order_id of 1025 characters', 'gus', { order_id: 'o'.repeat(1025) }, 400, 'invalid_parameter', 'order_id'],
      ['an unknown parameter', 'gus', { user_product_id: ups.gusPsp, reason: 'x' }, 400, 'unknown_parameter', 'reason'],
    ])('refuses %s', async (_, name, json, status, code, field) => {
      const answer = await expectUnchanged(h.platform, () => eligible(json, tokens[name]!));
      expectError(answer, status, code, field);
    });

    test('without a body (what fetch sends): 400 naming the body; the query is not read', async () => {
      const answer = await expectUnchanged(h.platform, () =>
        h.call(paths.eligible, { query: { user_product_id: ups.gusPsp }, token: tokens.gus! }),
      );
      const error = expectError(answer, 400, 'invalid_parameter', 'body');
      expect(error.message).toMatch(/JSON body/);
    });

    test("a body over the platform's maxBodyBytes: 413 payload_too_large, in both adapters", async () => {
      const raw = JSON.stringify({ user_product_id: 'x'.repeat(1024 * 1024) });
      const answer = await expectUnchanged(h.platform, () =>
        getWithBody(h, paths.eligible, undefined, tokens.gus!, raw),
      );
      expectError(answer, 413, 'payload_too_large', 'body');
    });

    test('a body that is not JSON: 400 json_parser_error', async () => {
      const answer = await expectUnchanged(h.platform, () =>
        getWithBody(h, paths.eligible, undefined, tokens.gus!, '{user_product_id'),
      );
      expectError(answer, 400, 'json_parser_error', 'body');
    });

    test('a token without a user: 403 identity_required', async () => {
      const token = h.token(USER_SCOPES);
      const answer = await expectUnchanged(h.platform, () => eligible({ user_product_id: ups.gusPsp }, token));
      expectError(answer, 403, 'identity_required');
    });

    test.each([
      ['only /external/me/w', ['/external/me/w']],
      ['only /external/me/r', ['/external/me/r']],
    ])('a user token with %s: 403 insufficient_scope (both are needed)', async (_, scopes) => {
      const token = user(gus, scopes);
      const answer = await expectUnchanged(h.platform, () => eligible({ user_product_id: ups.gusPsp }, token));
      expectError(answer, 403, 'insufficient_scope');
    });
  });

  describe('7. subscribe to campaign', () => {
    test('the subscription moves to the campaign, visible to every read, and the campaign is answered', async () => {
      const { item } = expectOk(
        await subscribe({ user_product_id: ups.gusPsp }, tokens.gus!),
        SubscribeToCampaignResponse,
      );
      expect(item.code).toBe('premium-summer');
      expect(userProduct(ups.gusPsp)).toMatchObject({
        product_id: demoIds.products.premiumSummer,
        product_code: 'premium-summer',
        state: 'activated',
        retention_offer_id: demoIds.retentionOffers.premiumStay,
      });
      // Endpoint 6 now says so.
      const again = expectOk(await eligible({ user_product_id: ups.gusPsp }, tokens.gus!), NotEligibleAnswer);
      expect(again.code).toBe('already_on_campaign');
    });

    test('visible to every read: v3 me shows the campaign as product_code and title_code, the term unchanged', async () => {
      // The campaign in a title of its own, so that the title's change can be seen.
      changeCampaign((c) => {
        c.title_code = 'EPAPER';
      });
      const before = await readThroughMe(ups.gusPsp, tokens.gus!);
      expect(before).toMatchObject({
        product_code: 'premium-digital',
        title_code: 'DAILY',
        state: 'activated',
        valid_to: '2999-12-31T23:59:59Z',
        campaign_end_date: null,
      });
      expectOk(await subscribe({ user_product_id: ups.gusPsp }, tokens.gus!), SubscribeToCampaignResponse);
      const after = await readThroughMe(ups.gusPsp, tokens.gus!);
      expect(after).toEqual({
        ...before,
        product_code: 'premium-summer',
        title_code: 'EPAPER',
        updated: expect.any(String),
        // Its term does not change; a campaign's end is the end of its term.
        valid_to: '2999-12-31T23:59:59Z',
        campaign_end_date: '2999-12-31T23:59:59Z',
      });
    });

    test('twice: the second is 409 already_on_campaign and changes nothing', async () => {
      expectOk(await subscribe({ user_product_id: ups.gusPsp }, tokens.gus!), SubscribeToCampaignResponse);
      const answer = await expectUnchanged(h.platform, () => subscribe({ user_product_id: ups.gusPsp }, tokens.gus!));
      expectError(answer, 409, 'already_on_campaign', 'user_product_id');
    });

    test('a cancelled subscription becomes activated on the campaign', async () => {
      expectOk(await h.call(paths.cancel, { method: 'PUT', json: { id: ups.gusPsp }, token: tokens.gus! }), IdResponse);
      expect(userProduct(ups.gusPsp)?.state).toBe('cancelled');
      expectOk(await subscribe({ user_product_id: ups.gusPsp }, tokens.gus!), SubscribeToCampaignResponse);
      expect(userProduct(ups.gusPsp)).toMatchObject({ state: 'activated', cancelled_at: null });
    });

    test.each([
      ['not eligible (no offer)', 'bo', { user_product_id: ups.boBasic }, 409, 'not_eligible', 'user_product_id'],
      ['not eligible (limited), by order', 'jon', { order_id: 'order-000a' }, 409, 'not_recurring', 'order_id'],
      ["another user's subscription", 'bo', { user_product_id: ups.gusPsp }, 404, 'not_found', 'user_product_id'],
      ['neither parameter', 'gus', {}, 400, 'invalid_parameter', 'user_product_id'],
      ['both parameters', 'gus', { user_product_id: ups.gusPsp, order_id: 'x' }, 400, 'invalid_parameter', 'order_id'],
      ['an order_id of 1025 characters', 'gus', { order_id: 'o'.repeat(1025) }, 400, 'invalid_parameter', 'order_id'],
      ['an absent order', 'gus', { order_id: 'order-none' }, 404, 'not_found', 'order_id'],
      ['an unknown parameter', 'gus', { user_product_id: ups.gusPsp, reason: 'x' }, 400, 'unknown_parameter', 'reason'],
    ])('refuses %s', async (_, name, json, status, code, field) => {
      const answer = await expectUnchanged(h.platform, () => subscribe(json, tokens[name]!));
      expectError(answer, status, code, field);
    });

    test('an order_id of 1024 characters passes the checks and is looked for: 404 not_found, not 400', async () => {
      const answer = await expectUnchanged(h.platform, () => subscribe({ order_id: 'o'.repeat(1024) }, tokens.gus!));
      expectError(answer, 404, 'not_found', 'order_id');
    });

    test('the campaign on offer not on sale: 409 not_eligible, nothing changes', async () => {
      takeCampaignOffSale();
      const answer = await expectUnchanged(h.platform, () => subscribe({ user_product_id: ups.gusPsp }, tokens.gus!));
      expectError(answer, 409, 'not_eligible', 'user_product_id');
    });

    test('a token without a user: 403 identity_required, nothing changes', async () => {
      const token = h.token(USER_SCOPES);
      const answer = await expectUnchanged(h.platform, () => subscribe({ user_product_id: ups.gusPsp }, token));
      expectError(answer, 403, 'identity_required');
    });

    test.each([
      ['only /external/me/w', ['/external/me/w']],
      ['only /external/me/r', ['/external/me/r']],
    ])('a user token with %s: 403 insufficient_scope (both are needed), nothing changes', async (_, scopes) => {
      const token = user(gus, scopes);
      const answer = await expectUnchanged(h.platform, () => subscribe({ user_product_id: ups.gusPsp }, token));
      expectError(answer, 403, 'insufficient_scope');
    });
  });

  describe('cancel product (beyond the spec)', () => {
    const cancel = (json: unknown, token: string) => h.call(paths.cancel, { method: 'PUT', json, token });

    test('the subscription is cancelled, still in its term, with the reason; endpoint 16 can reactivate it', async () => {
      h.platform.clock.freeze();
      const now = h.platform.clock.now().toISOString();
      expectOk(await cancel({ id: ups.gusPsp, cancellation_reason_id: reasons.tooExpensive }, tokens.gus!), IdResponse);
      expect(userProduct(ups.gusPsp)).toMatchObject({
        state: 'cancelled',
        cancelled_at: now,
        cancellation_reason_id: reasons.tooExpensive,
        valid_to: '2999-12-31T23:59:59Z',
      });
      const reactivated = await h.call(pathOf(e.reactivateSubscription, 'stage'), {
        method: 'PUT',
        json: { account_id: gus, user_product_id: ups.gusPsp },
        token: h.token(['/external/subscription_system/w']),
      });
      expectOk(reactivated, IdResponse);
      // Reactivated, it is no longer cancelled: neither when nor why is kept, as endpoint 7 leaves it.
      expect(userProduct(ups.gusPsp)).toMatchObject({
        state: 'activated',
        cancelled_at: null,
        cancellation_reason_id: null,
        valid_to: '2999-12-31T23:59:59Z',
      });
    });

    test.each([
      ["another user's subscription", 'bo', { id: ups.gusPsp }, 404, 'not_found', 'id'],
      [
        'an internal reason',
        'gus',
        { id: ups.gusPsp, cancellation_reason_id: reasons.paymentFailed },
        404,
        'not_found',
        'cancellation_reason_id',
      ],
      [
        'a reason not visible to the customer',
        'gus',
        { id: ups.gusPsp, cancellation_reason_id: reasons.duplicate },
        404,
        'not_found',
        'cancellation_reason_id',
      ],
      ['a product the customer may not cancel', 'bo', { id: ups.boBasic }, 409, 'not_cancellable', 'id'],
      [
        'a subscription of a provision service',
        'hedda',
        { id: ups.heddaProvisioned },
        409,
        'user_product_not_platform_provisioned',
        'id',
      ],
      ['a limited subscription', 'jon', { id: ups.jonLimited }, 409, 'not_recurring', 'id'],
      ['a subscription already cancelled', 'eva', { id: ups.evaSummerCancelled }, 409, 'invalid_state', 'id'],
      ['a malformed id', 'gus', { id: 'x' }, 400, 'invalid_parameter', 'id'],
      ['an absent subscription', 'gus', { id: absent.userProduct }, 404, 'not_found', 'id'],
      ['an unknown parameter', 'gus', { id: ups.gusPsp, reason: 'x' }, 400, 'unknown_parameter', 'reason'],
    ])('refuses %s', async (_, name, json, status, code, field) => {
      const answer = await expectUnchanged(h.platform, () => cancel(json, tokens[name]!));
      expectError(answer, status, code, field);
    });

    test('a token without a user: 403 identity_required, nothing changes', async () => {
      const token = h.token(['/external/me/w']);
      const answer = await expectUnchanged(h.platform, () => cancel({ id: ups.gusPsp }, token));
      expectError(answer, 403, 'identity_required');
    });

    test('a user token without /external/me/w (only /external/me/r): 403 insufficient_scope, nothing changes', async () => {
      const token = user(gus, ['/external/me/r']);
      const answer = await expectUnchanged(h.platform, () => cancel({ id: ups.gusPsp }, token));
      expectError(answer, 403, 'insufficient_scope');
    });
  });
});
