/**
 * Sequential syncs of many customers (endpoint 19): `subscriptionSystem.syncInSequence`. The
 * platform refuses a second sync of an organisation while one is under way, so a client's runs
 * queue behind each other, and each run waits out a call whose outcome it could not learn.
 */

import { APIConnectionError, ConflictError, RequestValidationError } from '../errors.js';
import type { RequestOptions } from '../request.js';
import type { IdResponse } from '../schemas/common.js';
import type { SyncCustomerRequest } from '../schemas/subscription-system.js';
import { MAX_SAFE_TIMEOUT, sleep } from '../sleep.js';
import { checkOption, checkRunOptions } from './check-option.js';

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
   * `{ initialMs: 100, maxMs: 60000 }`; `initialMs` is at least 1, and both at most 2147483647 (a
   * timer's longest), else the run is refused at once (`RequestValidationError`).
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

/** Endpoint 19 for one customer: what a sequential sync sends. */
export type SyncCustomer = (body: SyncCustomerRequest, options: RequestOptions) => Promise<IdResponse>;

/** How long a customer's call waits while the platform may be busy with a sync. */
interface BusyWait {
  readonly initialMs: number;
  readonly maxMs: number;
}

/** What a run does besides its calls, its options checked and their defaults in place. */
interface RunRules {
  readonly onProgress: ((progress: SyncProgress) => void) | undefined;
  readonly stopOnError: boolean;
  readonly signal: AbortSignal | undefined;
  readonly wait: BusyWait;
}

/** The longest single wait while the platform is busy, however long `maxMs` is. */
const LONGEST_BUSY_WAIT_MS = 5_000;

/**
 * The customer numbers of a run, as a list of their own: refused, naming the parameter, when they
 * are not a list (or other iterable) of strings. One number given alone is no list: spread, it would
 * be one sync per character. What a string holds is each customer's own rule, checked as it is sent.
 */
function customersOf(customerNumbers: Iterable<unknown>): string[] {
  const list =
    typeof customerNumbers === 'string' || typeof customerNumbers?.[Symbol.iterator] !== 'function'
      ? undefined
      : [...customerNumbers];
  const at = list?.findIndex((n) => typeof n !== 'string');
  if (list && at === -1) return list as string[];
  throw new RequestValidationError([
    {
      code: 'custom',
      path: list ? ['customerNumbers', at as number] : ['customerNumbers'],
      message: list ? 'Parameter must be a string' : 'Parameter must be a list of customer numbers',
      input: undefined,
    },
  ]);
}

/** Waits `ms`; false at once when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return sleep(ms, signal).then(
    () => true,
    () => false,
  );
}

/** The waits of one customer's call: twice as long each time (at most 5 s), `maxMs` in all. */
class Backoff {
  readonly #wait: BusyWait;
  #waited = 0;
  #next: number;

  constructor(wait: BusyWait) {
    this.#wait = wait;
    this.#next = wait.initialMs;
  }

  /** Whether there is time left to wait. */
  get left(): boolean {
    return this.#waited < this.#wait.maxMs;
  }

  /** Waits the next delay; false when the signal aborts first. */
  pause(signal: AbortSignal | undefined): Promise<boolean> {
    const ms = Math.max(0, Math.min(this.#next, this.#wait.maxMs - this.#waited));
    this.#waited += ms;
    this.#next = Math.min(this.#next * 2, LONGEST_BUSY_WAIT_MS);
    return pause(ms, signal);
  }
}

/**
 * The sequential syncs of one client: runs queue behind each other, never two calls in flight. A
 * resource holds one; the one-call endpoint 19 method does not wait for its runs.
 */
export class SyncSequence {
  readonly #sync: SyncCustomer;
  /** The runs of this client, one after another. */
  #queue: Promise<unknown> = Promise.resolve();
  /** The last call of a run got no answer: the platform may still be applying it. */
  #unsettled = false;

  /** A sequence that sends each customer's sync through `sync`. */
  constructor(sync: SyncCustomer) {
    this.#sync = sync;
  }

  /**
   * Queues a run of `customerNumbers` behind this client's earlier runs; see {@link
   * SubscriptionSystem.syncInSequence}. Numbers that are not a list of strings reject at once.
   */
  async run(customerNumbers: readonly string[], options: SyncInSequenceOptions = {}): Promise<SyncInSequenceResult> {
    const numbers = customersOf(customerNumbers);
    const { initialMs, maxMs } = options.waitWhileBusy ?? {};
    // A first wait of 0 would double to 0 forever: the 409s would be sent again at once, past maxMs.
    if (initialMs !== undefined) checkOption('waitWhileBusy.initialMs', initialMs, 1, MAX_SAFE_TIMEOUT);
    if (maxMs !== undefined) checkOption('waitWhileBusy.maxMs', maxMs, 0, MAX_SAFE_TIMEOUT);
    const { onProgress, stopOnError = false, signal, waitWhileBusy = {}, ...requestOptions } = options;
    const runSignal = checkRunOptions(signal, requestOptions);
    const wait = { initialMs: waitWhileBusy.initialMs ?? 100, maxMs: waitWhileBusy.maxMs ?? 60_000 };
    const run = this.#queue.then(() =>
      this.#run(numbers, { onProgress, stopOnError, signal: runSignal, wait }, requestOptions),
    );
    // The next run waits for this one, however it ends.
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #run(
    numbers: string[],
    { onProgress, stopOnError, signal, wait }: RunRules,
    requestOptions: RequestOptions,
  ): Promise<SyncInSequenceResult> {
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
    wait: BusyWait,
  ): Promise<CustomerSyncResult | undefined> {
    const backoff = new Backoff(wait);
    if (this.#unsettled && !(await backoff.pause(signal))) return undefined;
    for (;;) {
      try {
        const { id } = await this.#sync({ customer_number }, options);
        this.#unsettled = false;
        return { customer_number, status: 'synced', id };
      } catch (error) {
        if (error instanceof APIConnectionError) {
          this.#unsettled = true;
          return { customer_number, status: 'unknown', error };
        }
        const busy = error instanceof ConflictError && error.code === 'sync_in_progress';
        if (busy && backoff.left) {
          if (!(await backoff.pause(signal))) return undefined;
          continue;
        }
        this.#unsettled = busy;
        return { customer_number, status: 'failed', error };
      }
    }
  }
}
