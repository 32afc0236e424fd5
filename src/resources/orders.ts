import type { APIPromise } from '../api-promise.js';
import { validateGiftReceiver, validateOrder } from '../endpoints.js';
import type { RequestOptions } from '../request.js';
import type {
  OrderValidationQuery,
  OrderValidationResponse,
  ValidateGiftReceiverRequest,
  ValidateGiftReceiverResponse,
} from '../schemas/orders.js';
import { APIResource } from './resource.js';

/** Orders: order validation (spec endpoint 9) and gift receivers (endpoint 17). */
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

  /**
   * Validate gift receiver (endpoint 17): may a gift of the campaign `campaign_code` from
   * `giver_account_id` be delivered to `delivery_address`? `item.receiver_eligible` is false when
   * the external subscription system has a customer at that address with an active subscription of
   * the campaign's title. 404 `not_found` for the giver or the campaign. Scope `/external/order/r`.
   */
  validateGiftReceiver(
    body: ValidateGiftReceiverRequest,
    options?: RequestOptions,
  ): APIPromise<ValidateGiftReceiverResponse> {
    return this._client.request(validateGiftReceiver, body, options);
  }
}
