import type { APIPromise } from '../api-promise.js';
import type { RequestOptions } from '../client.js';
import {
  getDistributionInformation,
  reactivateSubscription,
  syncAddress,
  syncCustomerSubscriptions,
} from '../endpoints.js';
import type { IdResponse } from '../schemas/common.js';
import type {
  DistributionInformationQuery,
  DistributionInformationResponse,
  ReactivateSubscriptionRequest,
  SyncCustomerRequest,
} from '../schemas/subscription-system.js';
import { APIResource } from './resource.js';

/** How far a sequential sync run has come. */
export interface SyncProgress {
  /** Customers synced or failed so far. */
  done: number;
  /** Customers in the run. */
  total: number;
  /** The customer being synced now (after the last one: the last one). */
  current: string;
}

/** Options of {@link SubscriptionSystem.syncInSequence}: every request option, and the run's own. */
export interface SyncInSequenceOptions extends RequestOptions {
  /** Called before each customer's sync, and once at the end. */
  onProgress?: (progress: SyncProgress) => void;
  /** Stop at the first failure (the rest are `notSent`). Default `false`: go on. */
  stopOnError?: boolean;
}

/** The result of one customer's sync. */
export type CustomerSyncResult =
  | { customer_number: string; status: 'synced'; id: string }
  | { customer_number: string; status: 'failed'; error: unknown };

/** What {@link SubscriptionSystem.syncInSequence} did. */
export interface SyncInSequenceResult {
  /** One result per customer synced or failed, in the order given. */
  results: CustomerSyncResult[];
  /** Customers never sent: after an abort, or after the first failure with `stopOnError`. */
  notSent: string[];
  /** Whether the signal aborted the run. */
  aborted: boolean;
}

/**
 * The subscription system's endpoints (spec endpoints 16, 18, 19, 20): reactivation, and the
 * external subscription system's sync and distribution information.
 */
export class SubscriptionSystem extends APIResource {
  /** Every sync of this client runs after the one before: "bulk runs must be made in sequence". */
  #queue: Promise<unknown> = Promise.resolve();

  /**
   * Reactivate platform-provisioned subscription (endpoint 16): a cancelled user-product, still in
   * its term, controlled by the platform, becomes `activated` again. 404 `not_found` (account or
   * user-product); 409 `user_product_not_belong_to_account`, `user_product_not_platform_provisioned`,
   * `invalid_state` (not cancelled, or its term has ended). Scope `/external/subscription_system/w`.
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
   * {@link SubscriptionSystem.syncInSequence} runs many safely. A write: not retried unless `retryWrite`.
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
   * runs queue). Each call is a write, not retried unless `retryWrite: true` (a sync whose answer
   * was lost may or may not have been applied). Reports progress before each customer, honours
   * `signal` between calls, and returns a result per customer.
   *
   * ```ts
   * const run = await client.subscriptionSystem.syncInSequence(numbers, {
   *   onProgress: ({ done, total, current }) => bar.update(done, { current }),
   * });
   * const failed = run.results.filter((r) => r.status === 'failed');
   * ```
   */
  syncInSequence(
    customerNumbers: readonly string[],
    options: SyncInSequenceOptions = {},
  ): Promise<SyncInSequenceResult> {
    const run = this.#queue.then(() => this.#run([...customerNumbers], options));
    // The next run waits for this one, however it ends.
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #run(numbers: string[], options: SyncInSequenceOptions): Promise<SyncInSequenceResult> {
    const { onProgress, stopOnError = false, ...requestOptions } = options;
    const result: SyncInSequenceResult = { results: [], notSent: [], aborted: false };
    const total = numbers.length;
    for (let i = 0; i < total; i++) {
      const customer_number = numbers[i]!;
      if (requestOptions.signal?.aborted) {
        result.aborted = true;
        result.notSent.push(...numbers.slice(i));
        break;
      }
      onProgress?.({ done: i, total, current: customer_number });
      if (requestOptions.signal?.aborted) {
        result.aborted = true;
        result.notSent.push(...numbers.slice(i));
        break;
      }
      try {
        const { id } = await this.syncCustomerSubscriptions({ customer_number }, requestOptions);
        result.results.push({ customer_number, status: 'synced', id });
      } catch (error) {
        result.results.push({ customer_number, status: 'failed', error });
        if (requestOptions.signal?.aborted) {
          result.aborted = true;
          result.notSent.push(...numbers.slice(i + 1));
          break;
        }
        if (stopOnError) {
          result.notSent.push(...numbers.slice(i + 1));
          break;
        }
      }
    }
    onProgress?.({ done: result.results.length, total, current: numbers[result.results.length - 1] ?? '' });
    return result;
  }
}
