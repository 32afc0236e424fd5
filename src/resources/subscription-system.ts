import type { APIPromise } from '../api-promise.js';
import {
  getDistributionInformation,
  reactivateSubscription,
  syncAddress,
  syncCustomerSubscriptions,
} from '../endpoints.js';
import { type SyncInSequenceOptions, type SyncInSequenceResult, SyncSequence } from '../helpers/sync-in-sequence.js';
import type { RequestOptions } from '../request.js';
import type { IdResponse } from '../schemas/common.js';
import type {
  DistributionInformationQuery,
  DistributionInformationResponse,
  ReactivateSubscriptionRequest,
  SyncCustomerRequest,
} from '../schemas/subscription-system.js';
import { APIResource } from './resource.js';

/**
 * The subscription system's endpoints (spec endpoints 16, 18, 19, 20): reactivation, and the
 * external subscription system's sync and distribution information.
 */
export class SubscriptionSystem extends APIResource {
  /**
   * The runs of {@link SubscriptionSystem.syncInSequence} on this client, one after another. The
   * one-call {@link SubscriptionSystem.syncCustomerSubscriptions} does not wait for them.
   */
  readonly #sequence = new SyncSequence((body, options) => this.syncCustomerSubscriptions(body, options));

  /**
   * Reactivate platform-provisioned subscription (endpoint 16): a cancelled user-product, still in
   * its term, controlled by the platform, becomes `activated` again. 404 `not_found` (account or
   * user-product); 409 `user_product_not_belong_to_account`, `user_product_not_platform_provisioned`,
   * `invalid_state` (not cancelled, or its term has ended; or, naming `account_id`, the account is
   * archived). Scope `/external/subscription_system/w`.
   */
  reactivate(body: ReactivateSubscriptionRequest, options?: RequestOptions): APIPromise<IdResponse> {
    return this._client.request(reactivateSubscription, body, options);
  }

  /**
   * Sync address from external subscription system (endpoint 18): the account with `customer_number`
   * gets the external system's address. Answers the account's `id`. 404 `not_found` for the account,
   * or a customer the external system does not know; `400 configuration_error` without an
   * integration. Scope `/external/subscription_system/w`.
   */
  syncAddress(body: SyncCustomerRequest, options?: RequestOptions): APIPromise<IdResponse> {
    return this._client.request(syncAddress, body, options);
  }

  /**
   * Sync customer subscriptions (endpoint 19): the account's user-products controlled by the external
   * system are made to match it. Answers the account's `id`. 404 `not_found` for the account or a
   * product the organisation does not have (nothing changes then). Bulk runs must be made in
   * sequence: a second sync of the organisation while one is under way is `409 sync_in_progress`;
   * {@link SubscriptionSystem.syncInSequence} runs many safely (this method does not wait for its
   * runs). A write: not retried unless `retryWrite` (a retry after a timeout meets the first call
   * still under way: `409 sync_in_progress`).
   */
  syncCustomerSubscriptions(body: SyncCustomerRequest, options?: RequestOptions): APIPromise<IdResponse> {
    return this._client.request(syncCustomerSubscriptions, body, options);
  }

  /**
   * Distribution information (endpoint 20) of a product and one of its periods at a zip code: the
   * delivery days (1 = Monday) and the distribution price without and with VAT (decimal strings).
   * Only where the integration supports it (`400 configuration_error` otherwise). 404 `not_found`
   * for the product or the period. Scope `/external/subscription_system/r`.
   */
  distributionInformation(
    query: DistributionInformationQuery,
    options?: RequestOptions,
  ): APIPromise<DistributionInformationResponse> {
    return this._client.request(getDistributionInformation, query, options);
  }

  /**
   * Syncs the subscriptions of many customers (endpoint 19), strictly one after another: never two
   * in flight, even when this is called again on the same client before an earlier run is over (the
   * runs queue). Reports progress before each customer and returns a result per customer.
   *
   * - `customerNumbers` is a list (or other iterable) of strings; anything else, one number given
   *   alone included, rejects with a `RequestValidationError` naming it before anything is sent. A
   *   number the spec's rule refuses is that customer's `failed` result, not sent. The options are
   *   checked once, before anything is sent: a typo or a bad value (`signal` that is no
   *   `AbortSignal`) rejects the run with a `RequestValidationError` naming it.
   * - Each call is a write, not retried unless `retryWrite: true`: a sync whose answer was lost may
   *   still be under way, and a retry sent meanwhile is refused `409 sync_in_progress`.
   * - `signal` is honoured between calls only: a call under way completes and is reported (the
   *   platform would apply it anyway), then nothing more is sent.
   * - A call with no answer in time (`timeout`) or a lost connection is reported `unknown`. The
   *   platform has no way to ask whether a sync is still under way, so the next call waits
   *   (`waitWhileBusy.initialMs`) before it is sent, and a call answered `409 sync_in_progress` (a
   *   refusal that changes nothing) waits and is sent again, each wait twice as long, until
   *   `waitWhileBusy.maxMs`. That wait also covers another client's sync of the organisation.
   *
   * ```ts
   * const run = await client.subscriptionSystem.syncInSequence(numbers, {
   *   onProgress: ({ done, total, current }) => bar.update(done, { current }),
   * });
   * const failed = run.results.filter((r) => r.status !== 'synced');
   * ```
   */
  syncInSequence(customerNumbers: readonly string[], options?: SyncInSequenceOptions): Promise<SyncInSequenceResult> {
    return this.#sequence.run(customerNumbers, options);
  }
}
