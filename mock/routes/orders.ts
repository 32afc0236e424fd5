/**
 * Endpoint 9, order validation: may this customer buy this package? A refusal is a 200 with
 * `purchase_allowed: false`, a `reason` and a `message`. The shop checks a purchase the same way
 * (the rules: `mock/core/orders.ts`).
 */

import { validateGiftReceiver, validateOrder } from '../../src/endpoints.js';
import { callerAccount } from '../core/authentication.js';
import { notFound } from '../core/errors.js';
import { type Buyer, judgeOrder, packageForSale } from '../core/orders.js';
import { apiRoute, type Route } from '../core/route.js';
import { sameAddress } from '../core/subscription-system.js';

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
