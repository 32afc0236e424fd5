/**
 * Endpoint 9, order validation: may this customer buy this package? A refusal is a 200 with
 * `purchase_allowed: false`, a `reason` and a `message`. The shop checks a purchase the same way.
 */

import { validateGiftReceiver, validateOrder } from '../../src/endpoints.js';
import type { OrderValidationResult } from '../../src/schemas/orders.js';
import { callerAccount } from '../core/authentication.js';
import type { AccountRecord, ProductRecord } from '../core/document.js';
import { notFound } from '../core/errors.js';
import { sameId } from '../core/ids.js';
import { isActive } from '../core/products.js';
import { apiRoute, type Route } from '../core/route.js';
import type { State } from '../core/state.js';
import { sameAddress } from '../core/subscription-system.js';
import { isLive } from '../core/user-products.js';

/** What endpoint 9 answers when the purchase is allowed. */
const ALLOWED: OrderValidationResult = {
  purchase_allowed: true,
  reason: null,
  message: null,
  fallback_package_code: null,
};

/** The package a product is: itself, or a campaign's parent package. */
function packageOf(state: State, product: ProductRecord): ProductRecord {
  if (!product.is_campaign || product.parent_product_id === null) return product;
  return state.product(product.organisation_id, product.parent_product_id) ?? product;
}

/** Whether `account` holds a live user-product of `pkg` or of a campaign based on it. */
function subscribesTo(state: State, account: AccountRecord, pkg: ProductRecord, nowMs: number): boolean {
  return state.userProductsOf(account.id).some((u) => {
    if (!isLive(u, nowMs)) return false;
    const owned = state.products.get(u.product_id);
    if (!owned) return false;
    return sameId(owned.id, pkg.id) || sameId(packageOf(state, owned).id, pkg.id);
  });
}

/** The date `years` after a date of birth (a calendar date or a date-time), in epoch milliseconds. */
function yearsAfter(dateOfBirth: string, years: number): number {
  const birth = new Date(Date.parse(dateOfBirth));
  return Date.UTC(
    birth.getUTCFullYear() + years,
    birth.getUTCMonth(),
    birth.getUTCDate(),
    birth.getUTCHours(),
    birth.getUTCMinutes(),
    birth.getUTCSeconds(),
  );
}

/** Who wants to buy: a known account, or only a date of birth (a new customer). */
export interface Buyer {
  readonly account?: AccountRecord;
  readonly dateOfBirth?: string;
}

/**
 * Judges a purchase of `product` (a package or campaign) by `buyer` at `nowMs`: `already_subscribed`
 * when the account holds a live user-product of the package (or of a campaign on it), then
 * `too_young` when the buyer is younger than the minimum age (a campaign's own, else its
 * package's), offering the fallback package.
 */
export function judgeOrder(state: State, product: ProductRecord, buyer: Buyer, nowMs: number): OrderValidationResult {
  const pkg = packageOf(state, product);
  if (buyer.account && subscribesTo(state, buyer.account, pkg, nowMs))
    return {
      purchase_allowed: false,
      reason: 'already_subscribed',
      message: `The account already subscribes to ${pkg.name}`,
      fallback_package_code: null,
    };
  const minimumAge = product.minimum_age ?? pkg.minimum_age;
  const dateOfBirth = buyer.dateOfBirth ?? buyer.account?.date_of_birth;
  if (minimumAge !== undefined && dateOfBirth !== undefined && yearsAfter(dateOfBirth, minimumAge) > nowMs)
    return {
      purchase_allowed: false,
      reason: 'too_young',
      message: `The buyer must be at least ${minimumAge} years old`,
      fallback_package_code: product.fallback_package_code ?? pkg.fallback_package_code ?? null,
    };
  return ALLOWED;
}

/** A package or campaign of an organisation that is on sale now, by product code. */
export function packageForSale(
  state: State,
  organisationId: string,
  code: string,
  nowMs: number,
): ProductRecord | undefined {
  const p = state.productByCode(organisationId, code);
  return p && (p.is_package || p.is_campaign) && isActive(p, nowMs) ? p : undefined;
}

/**
 * Endpoint 9. The package (or campaign) must be on sale in the caller's organisation (404 naming
 * `product_code`); `account_id` must name an account of it (404); an `ssn` of no account is a new
 * customer, allowed unless too young is known (it is not: no date of birth).
 */
const validate = apiRoute(validateOrder, ({ input: q, state, auth, clock }) => {
  const org = auth.client.organisation_id;
  const now = clock.nowMs();
  const product = packageForSale(state, org, q.product_code, now);
  if (!product) throw notFound('product_code', 'Package not found');
  let buyer: Buyer;
  if (q.account_id !== undefined) {
    const account = callerAccount(state, auth, q.account_id);
    buyer = { account };
  } else if (q.ssn !== undefined) {
    const account = state.accountBySsn(org, q.ssn);
    buyer = account ? { account } : {};
  } else {
    buyer = { dateOfBirth: q.date_of_birth };
  }
  return { body: { item: judgeOrder(state, product, buyer, now) } };
});

/**
 * Endpoint 17. The giver (an account of the organisation, 404 `giver_account_id`) and the campaign
 * (a campaign of the organisation, 404 `campaign_code`: a package is not a campaign). The receiver
 * is not eligible when the external system has a customer at the delivery address (compared as
 * {@link sameAddress} says) with an active subscription of a product of the campaign's title. An
 * organisation without an integration has nothing to conflict with: eligible.
 */
const giftReceiver = apiRoute(validateGiftReceiver, ({ input, state, auth, clock }) => {
  const org = auth.client.organisation_id;
  if (!state.account(org, input.giver_account_id)) throw notFound('giver_account_id', 'Account not found');
  const campaign = state.productByCode(org, input.campaign_code);
  if (!campaign?.is_campaign) throw notFound('campaign_code', 'Campaign not found');
  const system = state.subscriptionSystems.get(org);
  const now = clock.nowMs();
  const conflict = system?.customers.some(
    (c) =>
      c.address !== null &&
      sameAddress(c.address, input.delivery_address) &&
      c.subscriptions.some(
        (sub) =>
          sub.state === 'active' &&
          Date.parse(sub.valid_to) > now &&
          state.productByCode(org, sub.product_code)?.title_code === campaign.title_code,
      ),
  );
  return { body: { item: { receiver_eligible: !conflict } } };
});

/** The routes of this file. */
export const orderRoutes: readonly Route[] = [validate, giftReceiver];
