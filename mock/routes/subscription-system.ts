/**
 * The subscription system's endpoints: 16 (reactivate a platform-provisioned subscription), and
 * the external subscription system's: 18 (sync address), 19 (sync customer subscriptions, one at a
 * time per organisation) and 20 (distribution information).
 */

import {
  getDistributionInformation,
  reactivateSubscription,
  syncAddress,
  syncCustomerSubscriptions,
} from '../../src/endpoints.js';
import { callerAccount } from '../core/authentication.js';
import { sleep } from '../core/clock.js';
import { HttpError, notFound, stateReplaced } from '../core/errors.js';
import { idKey, sameId } from '../core/ids.js';
import { apiRoute, type Route } from '../core/route.js';
import {
  accountByCustomerNumber,
  applySync,
  externalCustomer,
  planSync,
  systemOf,
} from '../core/subscription-system.js';
import { stateAt } from '../core/user-products.js';

/**
 * Endpoint 16. 404 `not_found` for the account, then the user-product (of the organisation); then
 * 409 in this order: `user_product_not_belong_to_account`, `user_product_not_platform_provisioned`
 * (controlled by a provision service), `invalid_state` (not cancelled, or cancelled with its term
 * ended: the platform deactivates it then), and last `invalid_state` naming `account_id` for an
 * archived account (as endpoint 13 refuses one). Reactivated, it is `activated` again, its term unchanged,
 * and its `cancelled_at` and `cancellation_reason_id` cleared.
 */
const reactivate = apiRoute(reactivateSubscription, ({ input, state, auth, clock }) => {
  const org = auth.client.organisation_id;
  const account = callerAccount(state, auth, input.account_id);
  const u = state.userProduct(org, input.user_product_id);
  if (!u) throw notFound('user_product_id', 'User-product not found');
  if (!sameId(u.account_id, account.id))
    throw new HttpError(
      409,
      'user_product_not_belong_to_account',
      'The user-product belongs to another account',
      'user_product_id',
    );
  if (u.provision_service !== null)
    throw new HttpError(
      409,
      'user_product_not_platform_provisioned',
      'The user-product is controlled by a provision service, not the platform',
      'user_product_id',
    );
  if (u.state !== 'cancelled')
    throw new HttpError(
      409,
      'invalid_state',
      `The user-product is ${stateAt(u, clock.nowMs())}, not cancelled`,
      'user_product_id',
    );
  if (Date.parse(u.valid_to) <= clock.nowMs())
    throw new HttpError(409, 'invalid_state', 'The cancelled user-product has ended its term', 'user_product_id');
  // As provisioning (13) refuses one: reactivating would bill an account that is closed.
  if (account.status === 'archived') throw new HttpError(409, 'invalid_state', 'The account is archived', 'account_id');
  state.userProducts.update(u, (r) => {
    r.state = 'activated';
    // No longer cancelled: when and why it was are cleared, as endpoint 7 clears them.
    r.cancelled_at = null;
    r.cancellation_reason_id = null;
    r.updated = clock.now().toISOString();
  });
  return { body: { id: u.id } };
});

/**
 * Endpoint 18. The organisation's integration (`400 configuration_error` without one), the account
 * with the customer number (404), the external system's customer (404 when it does not know it);
 * its address is copied to the account (street and number in one `street`). A customer without an
 * address leaves the account's as it is.
 */
const address = apiRoute(syncAddress, ({ input, state, auth }) => {
  const org = auth.client.organisation_id;
  const system = systemOf(state, org);
  const account = accountByCustomerNumber(state, org, input.customer_number);
  const customer = externalCustomer(system, input.customer_number);
  const a = customer.address;
  if (a)
    account.address = {
      street: `${a.street} ${a.street_number}`.trim(),
      zip_code: a.zip_code,
      city: a.city,
      country_code: a.country_code,
    };
  return { body: { id: account.id } };
});

/**
 * Endpoint 19. "Bulk runs must be made in sequence": a sync takes `syncProcessingMs`, and another
 * sync of the same organisation that arrives meanwhile is refused (`409 sync_in_progress`, no
 * change). The sync itself is judged and applied whole when its processing time is over: the
 * integration, the account, the external customer, then every product code (a code the
 * organisation does not have refuses the whole sync, 404). Running it twice changes nothing the
 * second time. A sync under way when the state is reset or replaced writes nothing into the new
 * state and answers `409 invalid_state`.
 */
const subscriptions = apiRoute(syncCustomerSubscriptions, async ({ input, state, auth, clock, settings }) => {
  const org = auth.client.organisation_id;
  const syncKey = idKey(org);
  if (state.syncsInFlight.has(syncKey))
    throw new HttpError(
      409,
      'sync_in_progress',
      'Another sync of customer subscriptions of the organisation is under way: bulk runs must be made in sequence',
    );
  const generation = state.generation;
  state.syncsInFlight.add(syncKey);
  try {
    if (settings.syncProcessingMs > 0) await sleep(settings.syncProcessingMs);
    // The state was reset or replaced meanwhile: this sync belongs to the old one.
    if (state.generation !== generation) throw stateReplaced('the sync was under way');
    const system = systemOf(state, org);
    const account = accountByCustomerNumber(state, org, input.customer_number);
    const customer = externalCustomer(system, input.customer_number);
    const changes = planSync(state, system, account, customer);
    applySync(state, system, account, changes, clock.now().toISOString());
    return { body: { id: account.id } };
  } finally {
    // After a reset the set is the new state's: a sync started since then is not this one.
    if (state.generation === generation) state.syncsInFlight.delete(syncKey);
  }
});

/**
 * Endpoint 20. The integration must support it (`400 configuration_error` otherwise, as without an
 * integration); the product (404 `product_code`) and one of its periods (404 `period_id`). A zip
 * code the papers do not reach gets no days; a product and period without a distribution price
 * gets `"0.00"`.
 */
const distribution = apiRoute(getDistributionInformation, ({ input, state, auth }) => {
  const org = auth.client.organisation_id;
  const system = systemOf(state, org);
  if (!system.supports_distribution_information)
    throw new HttpError(
      400,
      'configuration_error',
      `The organisation's subscription system (${system.vendor}) does not support distribution information`,
    );
  const product = state.productByCode(org, input.product_code);
  if (!product) throw notFound('product_code', 'Product not found');
  if (!product.price_periods.some((p) => sameId(p.id, input.period_id)))
    throw notFound('period_id', 'The product has no such period');
  const zip = input.zip_code.replace(/\s+/g, '');
  const zone = system.distribution.zones.find((z) => z.zip_codes.some((c) => c.replace(/\s+/g, '') === zip));
  const price = system.distribution.prices.find(
    (p) => p.product_code === product.product_code && sameId(p.period_id, input.period_id),
  );
  return {
    body: {
      item: {
        distribution_days: zone ? [...zone.distribution_days].sort((a, b) => a - b) : [],
        distribution_price: price?.distribution_price ?? '0.00',
        distribution_price_with_tax: price?.distribution_price_with_tax ?? '0.00',
      },
    },
  };
});

/** The routes of this file. */
export const subscriptionSystemRoutes: readonly Route[] = [reactivate, address, subscriptions, distribution];
