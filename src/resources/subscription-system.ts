import type { APIPromise } from '../api-promise.js';
import type { RequestOptions } from '../client.js';
import {
  getDistributionInformation,
  reactivateSubscription,
  syncAddress,
  syncCustomerSubscriptions,
} from '../endpoints.js';
import { APIConnectionError, ConflictError } from '../errors.js';
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
  /** Customers whose call is over (synced, failed or unknown) so far. */
  done: number;
  /** Customers in the run. */
  total: number;
  /** The customer being synced now (after the last one: the last one). */
  current: string;
}

/** Options of {@link SubscriptionSystem.syncInSequence}: the request options of each call, and the run's own. */
export interface SyncInSequenceOptions extends RequestOptions {
  /**
   * Stops the run between two calls. A call under way is never aborted (the platform would go on
   * applying it): it completes and is reported, and nothing more is sent.
   */
  signal?: AbortSignal;
  /**
   * Time allowed for each attempt of a call, in ms (the client's `timeout` by default). A call that
   * gets no answer in time is reported `unknown`, not `failed`: the platform may still be applying it.
   */
  timeout?: number;
  /** Called before each customer's sync, and once at the end. */
  onProgress?: (progress: SyncProgress) => void;
  /** Stop at the first customer not synced (`failed` or `unknown`; the rest are `notSent`). Default `false`: go on. */
  stopOnError?: boolean;
  /**
   * After a call whose outcome is `unknown`, the next call waits before it is sent; a call answered
   * `409 sync_in_progress` (another sync of the organisation is under way; the refusal changes
   * nothing) waits and is sent again: first `initialMs`, each next wait twice as long (at most 5 s),
   * `maxMs` in all for one customer, after which the `409` is its result. Default
   * `{ initialMs: 100, maxMs: 60000 }`.
   */
  waitWhileBusy?: { initialMs?: number; maxMs?: number };
}

/**
 * The result of one customer's sync: `synced` (the platform's answer was 200), `failed` (the
 * platform refused it, or the SDK did before sending), or `unknown`: sent, but no answer came (a
 * client timeout or a lost connection, `error`), so the platform may have applied it, may still be
 * applying it, or may never have received it. Sync an `unknown` customer again later to be sure:
 * a second sync of a customer changes nothing when the first was applied.
 */
export type CustomerSyncResult =
  | { customer_number: string; status: 'synced'; id: string }
  | { customer_number: string; status: 'failed'; error: unknown }
  | { customer_number: string; status: 'unknown'; error: APIConnectionError };

/** What {@link SubscriptionSystem.syncInSequence} did. */
export interface SyncInSequenceResult {
  /** One result per customer whose call is over, in the order given. */
  results: CustomerSyncResult[];
  /**
   * Customers not synced and not changed: never sent (after an abort, or after the first customer
   * not synced with `stopOnError`), or, aborted while waiting, only refused as `sync_in_progress`.
   */
  notSent: string[];
  /** Whether the signal stopped the run before its end. */
  aborted: boolean;
}

/** Waits `ms`; false at once when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The subscription system's endpoints (spec endpoints 16, 18, 19, 20): reactivation, and the
 * external subscription system's sync and distribution information.
 */
export class SubscriptionSystem extends APIResource {
  /**
   * The runs of {@link SubscriptionSystem.syncInSequence} on this client, one after another. The
   * one-call {@link SubscriptionSystem.syncCustomerSubscriptions} does not wait for them.
   */
  #queue: Promise<unknown> = Promise.resolve();
  /** The last call of a run got no answer: the platform may still be applying it. */
  #unsettled = false;

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
    const { onProgress, stopOnError = false, signal, waitWhileBusy = {}, ...requestOptions } = options;
    const wait = { initialMs: waitWhileBusy.initialMs ?? 100, maxMs: waitWhileBusy.maxMs ?? 60_000 };
    const result: SyncInSequenceResult = { results: [], notSent: [], aborted: false };
    const total = numbers.length;
    const abort = (from: number) => {
      result.aborted = true;
      result.notSent.push(...numbers.slice(from));
    };
    for (let i = 0; i < total; i++) {
      const customer_number = numbers[i]!;
      // Between two calls: before the progress report, and after it (it may abort).
      if (!signal?.aborted) onProgress?.({ done: i, total, current: customer_number });
      if (signal?.aborted) {
        abort(i);
        break;
      }
      const outcome = await this.#syncOne(customer_number, requestOptions, signal, wait);
      if (outcome === undefined) {
        abort(i);
        break;
      }
      result.results.push(outcome);
      if (stopOnError && outcome.status !== 'synced') {
        result.notSent.push(...numbers.slice(i + 1));
        break;
      }
    }
    onProgress?.({ done: result.results.length, total, current: numbers[result.results.length - 1] ?? '' });
    return result;
  }

  /**
   * One customer's sync, without the caller's signal (a call under way is never cut). Waits first
   * when the last call got no answer, and again while the platform answers `409 sync_in_progress`;
   * `undefined` when the signal aborts a wait (the customer is then not synced, nothing changed).
   */
  async #syncOne(
    customer_number: string,
    options: RequestOptions,
    signal: AbortSignal | undefined,
    wait: { initialMs: number; maxMs: number },
  ): Promise<CustomerSyncResult | undefined> {
    let waited = 0;
    let delay = wait.initialMs;
    const waitOnce = async (): Promise<boolean> => {
      const ms = Math.max(0, Math.min(delay, wait.maxMs - waited));
      waited += ms;
      delay = Math.min(delay * 2, 5_000);
      return pause(ms, signal);
    };
    if (this.#unsettled && !(await waitOnce())) return undefined;
    for (;;) {
      try {
        const { id } = await this.syncCustomerSubscriptions({ customer_number }, options);
        this.#unsettled = false;
        return { customer_number, status: 'synced', id };
      } catch (error) {
        if (error instanceof APIConnectionError) {
          this.#unsettled = true;
          return { customer_number, status: 'unknown', error };
        }
        const busy = error instanceof ConflictError && error.code === 'sync_in_progress';
        if (busy && waited < wait.maxMs) {
          if (!(await waitOnce())) return undefined;
          continue;
        }
        this.#unsettled = busy;
        return { customer_number, status: 'failed', error };
      }
    }
  }
}
