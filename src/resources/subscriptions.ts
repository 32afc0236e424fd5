import type { APIPromise } from '../api-promise.js';
import { transferSubscription } from '../endpoints.js';
import type { RequestOptions } from '../request.js';
import type { IdResponse } from '../schemas/common.js';
import type { TransferSubscriptionRequest } from '../schemas/subscriptions.js';
import { APIResource } from './resource.js';

/** Subscriptions between accounts (spec endpoint 5). */
export class Subscriptions extends APIResource {
  /**
   * Transfer subscription (endpoint 5): the user-product `subscription_id` of `source_account_id`
   * moves, with its order and payment-profile history, to the account with `target_account_email`.
   * It cannot be undone, only repeated the other way. 404 `does_not_exist` (source account or
   * subscription, field `unspecified_field`), 404 `account_not_found` (target); `409 invalid_state`
   * for a subscription paid through `psp` or an inactive target. Scope `/external/subscription/w`.
   */
  transfer(body: TransferSubscriptionRequest, options?: RequestOptions): APIPromise<IdResponse> {
    return this._client.request(transferSubscription, body, options);
  }
}
