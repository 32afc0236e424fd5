import type { APIPromise } from '../api-promise.js';
import { updatePrices } from '../endpoints.js';
import type { RequestOptions } from '../request.js';
import type { IdResponse } from '../schemas/common.js';
import type { UpdatePricesRequest } from '../schemas/prices.js';
import { APIResource } from './resource.js';

/** Prices of packages and campaigns (spec endpoint 1). */
export class Prices extends APIResource {
  /**
   * Update prices (endpoint 1) of the package or campaign with `package_integration_code`: at most
   * one period per payment option; a period that does not exist is created. Answers the package's
   * `id`; 404 `not_found` when it is absent. Scope `/external/price/w`.
   *
   * A write: not retried unless `retryWrite: true`.
   */
  update(body: UpdatePricesRequest, options?: RequestOptions): APIPromise<IdResponse> {
    return this._client.request(updatePrices, body, options);
  }
}
