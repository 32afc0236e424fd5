import type { APIPromise } from '../api-promise.js';
import { getAccountActiveProducts } from '../endpoints.js';
import type { RequestOptions } from '../request.js';
import type { AccountActiveProductsQuery } from '../schemas/accounts.js';
import type { ActiveProductsResponse } from '../schemas/me.js';
import { APIResource } from './resource.js';

/** Accounts of the client's organisation, as the platform's public documentation shows them (beyond the spec). */
export class Accounts extends APIResource {
  /**
   * The product codes an account has access to now: subscriptions started and not over (an
   * `activated` recurring one, a `limited` or `cancelled` one before its term ends), packages
   * expanded to their products. 404 `not_found` (`account_id`) for an account that is absent or of
   * another organisation. Needs `/external/account/r`.
   */
  activeProducts(params: AccountActiveProductsQuery, options?: RequestOptions): APIPromise<ActiveProductsResponse> {
    return this._client.request(getAccountActiveProducts, params, options);
  }
}
