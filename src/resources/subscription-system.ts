import type { APIPromise } from '../api-promise.js';
import type { RequestOptions } from '../client.js';
import { reactivateSubscription } from '../endpoints.js';
import type { IdResponse } from '../schemas/common.js';
import type { ReactivateSubscriptionRequest } from '../schemas/subscription-system.js';
import { APIResource } from './resource.js';

/** The subscription system's endpoints (spec endpoint 16). */
export class SubscriptionSystem extends APIResource {
  /**
   * Reactivate platform-provisioned subscription (endpoint 16): a cancelled user-product, still in
   * its term, controlled by the platform, becomes `activated` again. 404 `not_found` (account or
   * user-product); 409 `user_product_not_belong_to_account`, `user_product_not_platform_provisioned`,
   * `invalid_state` (not cancelled, or its term has ended). Scope `/external/subscription_system/w`.
   */
  reactivate(body: ReactivateSubscriptionRequest, options?: RequestOptions): APIPromise<IdResponse> {
    return this._client.request(reactivateSubscription, body, options);
  }
}
