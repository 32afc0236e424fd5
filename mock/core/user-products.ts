/**
 * User-products (subscriptions), the one model every endpoint that reads or writes them shares:
 * the shop's purchase, provisioning (13), update (12), transfer (5), reactivation (16), retention
 * (6, 7) and the subscription-system sync (19). A user-product belongs to an account; its orders
 * and payment profiles follow it. Everything is per organisation: another organisation's records
 * are absent.
 */

import { sumOfDetails } from '../../src/schemas/products.js';
import { dateText, type OffsetClock } from './clock.js';
import type { ClientRecord, PricePeriodRecord, ProductRecord, UserProductRecord } from './document.js';
import { HttpError } from './errors.js';
import { makeRoomForUserProduct } from './eviction.js';
import { newId } from './ids.js';
import type { Auth } from './route.js';
import type { State } from './state.js';

/**
 * Whether a user-product ends at the end of its term (`valid_to`): a `limited` one, and a
 * `cancelled` one (the platform deactivates a cancelled subscription "at the next renewal date", its
 * public documentation says). An `activated` recurring one renews there instead: the reference
 * platform takes no payment and leaves its `valid_to` as it is, and it runs until it is cancelled
 * or deactivated.
 */
function endsWithItsTerm(u: UserProductRecord): boolean {
  return u.state === 'cancelled' || u.subscription_type === 'limited';
}

/**
 * The state a user-product is read in at `nowMs`: one that ends with its term (a `cancelled` or a
 * `limited` one) is `deactivated` once its term has ended. The record keeps the state it was given,
 * and its `valid_to` says when the term ends, on a clock a test may move.
 */
export function stateAt(u: UserProductRecord, nowMs: number): UserProductRecord['state'] {
  return u.state !== 'deactivated' && endsWithItsTerm(u) && Date.parse(u.valid_to) <= nowMs ? 'deactivated' : u.state;
}

/**
 * A user-product that is not over at `nowMs`, started or not: read `activated` or `cancelled` (see
 * {@link stateAt}). A purchase or a provisioning now would overlap it.
 */
export function isLive(u: UserProductRecord, nowMs: number): boolean {
  return stateAt(u, nowMs) !== 'deactivated';
}

/** A user-product that gives access at `nowMs`: live, and its term started (`valid_from` <= now). */
export function givesAccess(u: UserProductRecord, nowMs: number): boolean {
  return isLive(u, nowMs) && Date.parse(u.valid_from) <= nowMs;
}

/** The provision service of the calling client, or `400 configuration_error` (endpoints 12 and 13). */
export function provisionServiceOf(client: ClientRecord): string {
  if (client.provision_service === null || client.provision_service === '')
    throw new HttpError(
      400,
      'configuration_error',
      'The API client has no provision service: ask the operator to configure one',
    );
  return client.provision_service;
}

/** The guard of endpoints 12 and 13: the client must have a provision service, whatever the body. */
export function requireProvisionService(auth: Auth): void {
  provisionServiceOf(auth.client);
}

/** The price of one iteration of a period: `price`, or the sum of its details (complex model). */
export function priceOf(period: PricePeriodRecord): number {
  return period.price ?? sumOfDetails(period.details ?? []);
}

/** The end of one period after `fromMs`: `length` days, weeks, months or years (NaN past any date). */
function periodEnd(fromMs: number, type: PricePeriodRecord['type'], length: number): number {
  const d = new Date(fromMs);
  if (type === 'day') d.setUTCDate(d.getUTCDate() + length);
  else if (type === 'week') d.setUTCDate(d.getUTCDate() + 7 * length);
  else if (type === 'month') d.setUTCMonth(d.getUTCMonth() + length);
  else d.setUTCFullYear(d.getUTCFullYear() + length);
  return d.getTime();
}

/** What a new user-product is: the fields in which a purchase, a provisioning and a sync differ. */
export interface NewUserProduct {
  readonly accountId: string;
  readonly product: ProductRecord;
  readonly subscriptionType: UserProductRecord['subscription_type'];
  readonly validFrom: string;
  readonly validTo: string;
  /** The external provision service that controls it; null for the platform's own (a purchase). */
  readonly provisionService: string | null;
  /** What a purchase paid: its payment option, the period and the order. */
  readonly paid?: { readonly paymentOption: string; readonly periodId: string; readonly orderId: string };
  /** The external system's own number, for a user-product a sync created. */
  readonly subscriptionNumber?: string;
}

/**
 * Adds an `activated` user-product, created `now`, and answers it: the one place its record is
 * written. One controlled by a provision service started externally when it became valid.
 */
export function addUserProduct(state: State, now: string, what: NewUserProduct): UserProductRecord {
  makeRoomForUserProduct(state);
  const { product, paid } = what;
  const userProduct: UserProductRecord = {
    id: newId(),
    account_id: what.accountId,
    product_id: product.id,
    product_code: product.product_code,
    title_code: product.title_code,
    created: now,
    updated: now,
    valid_from: what.validFrom,
    valid_to: what.validTo,
    provision_service: what.provisionService,
    subscription_type: what.subscriptionType,
    state: 'activated',
    has_pending_change_request: false,
    external_start_date: what.provisionService === null ? null : what.validFrom,
    payment_option: paid?.paymentOption ?? null,
    period_id: paid?.periodId ?? null,
    order_id: paid?.orderId ?? null,
    cancelled_at: null,
    cancellation_reason_id: null,
    retention_offer_id: null,
    subscription_number: what.subscriptionNumber ?? null,
  };
  state.userProducts.add(userProduct);
  return userProduct;
}

/** What a purchase is of. */
export interface Purchase {
  readonly accountId: string;
  readonly product: ProductRecord;
  readonly period: PricePeriodRecord;
}

/**
 * A purchase (the shop): an `activated` user-product controlled by the platform, valid one period
 * from now, with its order (the amount charged) and, for every payment option but `free`, its
 * payment profile (the period and the amount each iteration charges). Answers the new user-product.
 */
export function purchase(state: State, clock: OffsetClock, what: Purchase): UserProductRecord {
  const now = clock.nowMs();
  const created = new Date(now).toISOString();
  const orderId = newId();
  const { product, period } = what;
  const userProduct = addUserProduct(state, created, {
    accountId: what.accountId,
    product,
    subscriptionType: period.purchase_type,
    validFrom: created,
    // A period that ends past the latest date the document can hold ends there.
    validTo: dateText(periodEnd(now, period.type, period.length)),
    // A purchase is controlled by the platform, not by an external provision service.
    provisionService: null,
    paid: { paymentOption: period.payment_option, periodId: period.id, orderId },
  });
  state.orders.add({
    id: orderId,
    account_id: what.accountId,
    user_product_id: userProduct.id,
    created,
    product_id: product.id,
    product_code: product.product_code,
    period_id: period.id,
    payment_option: period.payment_option,
    amount: priceOf(period),
  });
  if (period.payment_option !== 'free')
    state.paymentProfiles.add({
      id: newId(),
      account_id: what.accountId,
      user_product_id: userProduct.id,
      created,
      payment_option: period.payment_option,
      details: period.payment_option === 'psp' ? (period.payment_option_details ?? null) : null,
      period_id: period.id,
      amount: priceOf(period),
    });
  return userProduct;
}

/**
 * Moves a user-product, with its orders and payment profiles, to another account (endpoint 5):
 * nothing of it stays on the source account.
 */
export function transfer(state: State, clock: OffsetClock, userProduct: UserProductRecord, accountId: string): void {
  const move = <T extends { account_id: string }>(r: T) => {
    r.account_id = accountId;
  };
  for (const order of [...state.orders.list('userProduct', userProduct.id)]) state.orders.update(order, move);
  for (const profile of [...state.paymentProfiles.list('userProduct', userProduct.id)])
    state.paymentProfiles.update(profile, move);
  state.userProducts.update(userProduct, (u) => {
    move(u);
    u.updated = clock.now().toISOString();
  });
}

/**
 * The product codes an account has access to now (see {@link givesAccess}): each package or
 * campaign expanded to itself and its member products. Sorted, each code once.
 */
export function activeProductCodes(state: State, accountId: string, nowMs: number): string[] {
  const codes = new Set<string>();
  for (const u of state.userProductsOf(accountId)) {
    if (!givesAccess(u, nowMs)) continue;
    codes.add(u.product_code);
    for (const member of state.products.get(u.product_id)?.products ?? []) codes.add(member.product_code);
  }
  return [...codes].sort();
}
