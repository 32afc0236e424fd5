/** An account's active products (the account API, beyond the spec). */
import { getAccountActiveProducts } from '../../src/endpoints.js';
import { callerAccount } from '../core/authentication.js';
import { apiRoute } from '../core/route.js';
import { activeProductCodes } from '../core/user-products.js';

/** `GET /external/api/v1/accounts/active_products?account_id=` (beyond the spec): an account of the client's organisation. */
export const accountActiveProducts = apiRoute(getAccountActiveProducts, ({ auth, state, clock, input }) => {
  const a = callerAccount(state, auth, input.account_id);
  return { body: { item: { id: a.id, active_products: activeProductCodes(state, a.id, clock.nowMs()) } } };
});
