/**
 * Order validation (endpoint 9), the platform's rules: whether a buyer may buy a package or
 * campaign, and which are on sale. The shop judges a purchase by the same rules.
 */

import type { OrderValidationResult } from '../../src/schemas/orders.js';
import type { AccountRecord, ProductRecord } from './document.js';
import { sameId } from './ids.js';
import { isActive } from './products.js';
import type { State } from './state.js';
import { isLive } from './user-products.js';

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
