import type { APIPromise } from '../api-promise.js';
import type { RequestOptions } from '../client.js';
import { validateOrder } from '../endpoints.js';
import type { OrderValidationQuery, OrderValidationResponse } from '../schemas/orders.js';
import { APIResource } from './resource.js';

/** Order validation (spec endpoint 9). */
export class Orders extends APIResource {
  /**
   * Order validation (endpoint 9): may this buyer purchase the package `product_code`? Give exactly
   * one of `account_id`, `date_of_birth` or `ssn`; none or two is a `RequestValidationError` and
   * nothing is sent. A refusal is not an error: `item.purchase_allowed` is `false` with a `reason`
   * (e.g. `too_young`), a `message` and possibly a `fallback_package_code`. 404 `not_found` when the
   * package or account is absent. Scope `/external/order_validation/r`.
   */
  validate(query: OrderValidationQuery, options?: RequestOptions): APIPromise<OrderValidationResponse> {
    return this._client.request(validateOrder, query, options);
  }
}
