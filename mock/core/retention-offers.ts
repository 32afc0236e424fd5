/**
 * Retention (endpoints 6 and 7): whether a user about to leave a subscription may be offered a
 * campaign instead, and moving the subscription to it. The rules, in the order they are judged,
 * each with the short reason code a refusal answers (docs/assumptions.md).
 */

import type { NotEligibleCode } from '../../src/schemas/me-retention.js';
import type { AccountRecord, ProductRecord, RetentionOfferRecord, UserProductRecord } from './document.js';
import { notFound } from './errors.js';
import { sameId } from './ids.js';
import { isActive } from './products.js';
import type { State } from './state.js';
import { isLive } from './user-products.js';

/** Why a subscription may not be offered a campaign: the code, and a readable message. */
export interface NotEligible {
  readonly code: NotEligibleCode;
  readonly message: string;
}

/** A subscription that may be offered a campaign: the offer and its campaign. */
export interface Eligible {
  readonly offer: RetentionOfferRecord;
  readonly campaign: ProductRecord;
}

/** The parameters of 6 and 7: exactly one of them (the shared schema checks it). */
export interface RetentionTarget {
  readonly user_product_id?: string | undefined;
  readonly order_id?: string | undefined;
}

/**
 * The user-product a request names, by `user_product_id` or by `order_id` (an order of the
 * `orders` collection), if it is the token user's; otherwise absent: 404 `not_found` naming the
 * parameter given (another user's subscription is never revealed).
 */
export function retentionTarget(state: State, account: AccountRecord, target: RetentionTarget): UserProductRecord {
  if (target.order_id !== undefined) {
    const order = state.orderOfAccount(account.id, target.order_id);
    const u = order && state.userProductOfAccount(account.id, order.user_product_id);
    if (!u) throw notFound('order_id', 'No order of yours with that id');
    return u;
  }
  const u = state.userProductOfAccount(account.id, target.user_product_id ?? '');
  if (!u) throw notFound('user_product_id', 'No subscription of yours with that id');
  return u;
}

/** The offer for a user-product's product: the product's own, else its package's (a campaign's parent). */
function offerFor(state: State, product: ProductRecord): RetentionOfferRecord | undefined {
  const own = state.retentionOffers.list('package', product.id)[0];
  if (own || product.parent_product_id === null) return own;
  return state.retentionOffers.list('package', product.parent_product_id)[0];
}

/** Judges whether `u` may be offered a campaign at `nowMs`. */
export function judgeRetention(state: State, u: UserProductRecord, nowMs: number): Eligible | NotEligible {
  if (u.subscription_type !== 'recurring')
    return { code: 'not_recurring', message: 'Only a recurring subscription can be offered a campaign' };
  if (u.provision_service !== null)
    return {
      code: 'not_platform_provisioned',
      message: 'The subscription is managed by another system, which makes its own offers',
    };
  if (!isLive(u, nowMs)) return { code: 'not_active', message: 'The subscription has ended' };
  if (u.retention_offer_id !== null)
    return { code: 'already_on_campaign', message: 'The subscription is already on a retention campaign' };
  const product = state.products.get(u.product_id);
  const offer = product && offerFor(state, product);
  const campaign = offer && state.products.get(offer.campaign_id);
  if (!offer || !campaign) return { code: 'not_eligible', message: 'No campaign is offered for this subscription' };
  if (!isActive(campaign, nowMs))
    return { code: 'not_eligible', message: 'The campaign on offer for this subscription is not on sale now' };
  if (sameId(campaign.id, u.product_id))
    return { code: 'already_on_campaign', message: 'The subscription is already on the campaign on offer' };
  return { offer, campaign };
}

/** The Retention campaign item of the spec for an eligible subscription. */
export function campaignItem({ offer, campaign }: Eligible) {
  return {
    id: campaign.id,
    code: campaign.product_code,
    name: offer.name,
    description: offer.description,
    products: campaign.products.map((p) => p.product_code),
  };
}
