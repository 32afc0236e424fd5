/**
 * Endpoints 13 (provision user-product) and 12 (update user-product), `/external/api/v1/userproducts`:
 * an external provision service creates and changes the user-products it controls.
 */

import { provisionUserProduct, updateUserProduct } from '../../src/endpoints.js';
import { compareInstants } from '../../src/instants.js';
import { callerAccount } from '../core/authentication.js';
import type { UserProductRecord } from '../core/document.js';
import { HttpError, invalidParameter, notFound } from '../core/errors.js';
import { sameId } from '../core/ids.js';
import { isActive } from '../core/products.js';
import { apiRoute, type Route } from '../core/route.js';
import type { State } from '../core/state.js';
import { addUserProduct, isLive, provisionServiceOf, requireProvisionService } from '../core/user-products.js';

/**
 * A validity window must end after it starts: endpoint 12's, one end given and the other kept (a
 * body giving both is refused by its schema, as endpoint 13's always is).
 */
function checkWindow(validFrom: string, validTo: string): void {
  if (compareInstants(validTo, validFrom) <= 0)
    throw invalidParameter('valid_to', 'Parameter must be later than valid_from');
}

/**
 * The first live user-product of `accountId` of this package from this provision service whose
 * window overlaps `window` (two windows that only meet do not), leaving out `except`: the second
 * provisioning endpoint 13 refuses, and the change endpoint 12 refuses.
 */
function overlappingProvisioning(
  state: State,
  accountId: string,
  productId: string,
  service: string,
  window: { valid_from: string; valid_to: string },
  nowMs: number,
  except?: UserProductRecord,
): UserProductRecord | undefined {
  return state
    .userProductsOf(accountId)
    .find(
      (u) =>
        u !== except &&
        sameId(u.product_id, productId) &&
        u.provision_service === service &&
        isLive(u, nowMs) &&
        compareInstants(u.valid_from, window.valid_to) < 0 &&
        compareInstants(window.valid_from, u.valid_to) < 0,
    );
}

/**
 * Endpoint 13. The body's schema has refused a window that does not end after it starts (`valid_to`)
 * before this runs. After the client's provision service (the guard): the account, then the package
 * or campaign (on sale now: an inactive one is absent, a plain product is not a package), then an
 * archived account (`409 invalid_state`), then a second live provisioning of the same package by
 * the same provision service with an overlapping window (`409 already_provisioned`).
 * Creates an `activated` user-product controlled by the caller's provision service; no order (the
 * provision service bills its own customers).
 */
const provision = apiRoute(
  provisionUserProduct,
  ({ input, state, auth, clock }) => {
    const org = auth.client.organisation_id;
    const service = provisionServiceOf(auth.client);
    const account = callerAccount(state, auth, input.account_id);
    const now = clock.nowMs();
    const pkg = state.productByCode(org, input.package_code);
    if (!pkg || !(pkg.is_package || pkg.is_campaign) || !isActive(pkg, now))
      throw notFound('package_code', 'Package or campaign not found');
    // As endpoints 4 and 5 refuse an archived account; an inactive one may still be provisioned.
    if (account.status === 'archived')
      throw new HttpError(409, 'invalid_state', 'The account is archived', 'account_id');
    const overlapping = overlappingProvisioning(state, account.id, pkg.id, service, input, now);
    if (overlapping)
      throw new HttpError(
        409,
        'already_provisioned',
        `The account already holds ${pkg.product_code} from this provision service for that time (user-product ${overlapping.id})`,
        'package_code',
      );
    const { id } = addUserProduct(state, clock.now().toISOString(), {
      accountId: account.id,
      product: pkg,
      subscriptionType: input.subscription_type,
      validFrom: input.valid_from,
      validTo: input.valid_to,
      provisionService: service,
    });
    return { body: { id } };
  },
  { guard: requireProvisionService },
);

/**
 * Endpoint 12. After the client's provision service (the guard), in this order: the account (404
 * `account_id`); the user-product (404 `product_id`, also when it is another account's); its
 * provision service (403 `not_product_owner` unless it is the caller's); the window as it will be;
 * then, when the window or the state changes and the user-product will be live, another live
 * provisioning of its package by the same provision service that the window overlaps (`409
 * already_provisioned`, as endpoint 13 refuses it, naming the end or the state changed).
 */
const update = apiRoute(
  updateUserProduct,
  ({ input, state, auth, clock }) => {
    const service = provisionServiceOf(auth.client);
    const account = callerAccount(state, auth, input.account_id);
    const u = state.userProductOfAccount(account.id, input.product_id);
    if (!u) throw notFound('product_id', 'User-product not found on the account');
    if (u.provision_service !== service)
      throw new HttpError(
        403,
        'not_product_owner',
        'The user-product with the expected external provision service was not found',
        'product_id',
      );
    const window = { valid_from: input.valid_from ?? u.valid_from, valid_to: input.valid_to ?? u.valid_to };
    checkWindow(window.valid_from, window.valid_to);
    // A change of the window or the state may not leave two live provisionings of one package
    // overlapping, which endpoint 13 would refuse (a change of the subscription type alone is not judged).
    const moved = input.valid_from ?? input.valid_to ?? input.state;
    const live = isLive({ ...u, ...window, state: input.state ?? u.state }, clock.nowMs());
    const overlapping =
      moved !== undefined && live
        ? overlappingProvisioning(state, account.id, u.product_id, service, window, clock.nowMs(), u)
        : undefined;
    if (overlapping)
      throw new HttpError(
        409,
        'already_provisioned',
        `The account already holds this package from this provision service for that time (user-product ${overlapping.id})`,
        input.valid_from !== undefined ? 'valid_from' : input.valid_to !== undefined ? 'valid_to' : 'state',
      );
    state.userProducts.update(u, (r) => {
      if (input.state !== undefined) r.state = input.state;
      if (input.subscription_type !== undefined) r.subscription_type = input.subscription_type;
      if (input.valid_from !== undefined) r.valid_from = input.valid_from;
      if (input.valid_to !== undefined) r.valid_to = input.valid_to;
      r.updated = clock.now().toISOString();
    });
    return { body: { id: u.id } };
  },
  { guard: requireProvisionService },
);

/** The routes of this file. */
export const userProductRoutes: readonly Route[] = [provision, update];
