/**
 * The subscription system's endpoints: 16 (reactivate a platform-provisioned subscription) now;
 * the external system's sync endpoints (18, 19, 20) join this file.
 */
import { reactivateSubscription } from '../../src/endpoints.js';
import { HttpError, notFound } from '../core/errors.js';
import { apiRoute, type Route } from '../core/route.js';
import { userProductOf } from '../core/user-products.js';

/**
 * Endpoint 16. 404 `not_found` for the account, then the user-product (of the organisation); then
 * 409 in this order: `user_product_not_belong_to_account`, `user_product_not_platform_provisioned`
 * (controlled by a provision service), `invalid_state` (not cancelled, or cancelled with its term
 * ended: the platform deactivates it then). Reactivated, it is `activated` again, its term unchanged.
 */
const reactivate = apiRoute(reactivateSubscription, ({ input, state, auth, clock }) => {
  const org = auth.client.organisation_id;
  const account = state.account(org, input.account_id);
  if (!account) throw notFound('account_id', 'Account not found');
  const u = userProductOf(state, org, input.user_product_id);
  if (!u) throw notFound('user_product_id', 'User-product not found');
  if (u.account_id.toLowerCase() !== account.id.toLowerCase())
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
    throw new HttpError(409, 'invalid_state', `The user-product is ${u.state}, not cancelled`, 'user_product_id');
  if (Date.parse(u.valid_to) <= clock.nowMs())
    throw new HttpError(409, 'invalid_state', 'The cancelled user-product has ended its term', 'user_product_id');
  state.userProducts.update(u, (r) => {
    r.state = 'activated';
    r.updated = clock.now().toISOString();
  });
  return { body: { id: u.id } };
});

/** The routes of this file. */
export const subscriptionSystemRoutes: readonly Route[] = [reactivate];
