import type { APIPromise } from '../api-promise.js';
import { provisionUserProduct, updateUserProduct } from '../endpoints.js';
import type { RequestOptions } from '../request.js';
import type { IdResponse } from '../schemas/common.js';
import type { ProvisionUserProductRequest, UpdateUserProductRequest } from '../schemas/user-products.js';
import { APIResource } from './resource.js';

/**
 * User-products an external provision service controls (spec endpoints 13 and 12). The API client
 * must have a provision service: otherwise both answer `400 configuration_error`.
 */
export class UserProducts extends APIResource {
  /**
   * Provision user-product (endpoint 13): a new `activated` user-product of the package or campaign
   * `package_code` on `account_id`, controlled by this client's provision service, valid from
   * `valid_from` to `valid_to`. Answers its `id` (201). 404 `not_found` naming `account_id` or
   * `package_code`; `409 already_provisioned` when the account already holds that package from this
   * provision service for an overlapping time. Scope `/external/userproduct/w`.
   *
   * A write: not retried unless `retryWrite: true`.
   */
  provision(body: ProvisionUserProductRequest, options?: RequestOptions): APIPromise<IdResponse> {
    return this._client.request(provisionUserProduct, body, options);
  }

  /**
   * Update user-product (endpoint 12): the user-product `product_id` of `account_id` gets the given
   * `state` (`activated` or `deactivated`), `subscription_type`, `valid_from`, `valid_to` (at least
   * one). 404 `not_found` naming `account_id` or `product_id`; `403 not_product_owner` when this
   * client's provision service does not control it; `409 already_provisioned` when the new window or
   * state would make it overlap another live provisioning of its package from this provision service
   * (naming `valid_from`, `valid_to` or `state`, whichever the body changes). Scope
   * `/external/userproduct/w`.
   */
  update(body: UpdateUserProductRequest, options?: RequestOptions): APIPromise<IdResponse> {
    return this._client.request(updateUserProduct, body, options);
  }
}
