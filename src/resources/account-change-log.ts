import type { APIPromise } from '../api-promise.js';
import { getAvailableCategories, logToAccounts } from '../endpoints.js';
import { type LogInBatchesOptions, type LogInBatchesResult, logInBatches } from '../helpers/log-in-batches.js';
import type { RequestOptions } from '../request.js';
import type {
  AvailableCategoriesResponse,
  ChangeLogEntry,
  LogToAccountsRequest,
  LogToAccountsResponse,
} from '../schemas/account-change-log.js';
import { APIResource } from './resource.js';

/** Change-log entries written to accounts (spec endpoint 4). */
export class AccountChangeLog extends APIResource {
  /**
   * The categories this organisation accepts in `category_type` (the spec names the path; the
   * shape `{ items: [{ category_type, name }] }` is this package's choice). Scope
   * `/external/account_change_log/w`.
   */
  availableCategories(options?: RequestOptions): APIPromise<AvailableCategoriesResponse> {
    return this._client.request(getAvailableCategories, undefined, options);
  }

  /**
   * Log to accounts (endpoint 4): 1 to 1000 entries in one request. A processed request is a 207,
   * resolved (never thrown) as `{ ok, errors }`: `ok` lists the account of each logged entry, in
   * order; `errors` each refused entry (an archived account, an account of another organisation)
   * with the platform's message. A category that is not available refuses the whole request
   * (`400 invalid_parameter`, `change_logs[i].category_type`). A write: never retried unless
   * `retryWrite: true`. Scope `/external/account_change_log/w`.
   */
  logToAccounts(body: LogToAccountsRequest, options?: RequestOptions): APIPromise<LogToAccountsResponse> {
    return this._client.request(logToAccounts, body, options);
  }

  /**
   * Logs any number of entries, in requests of at most 1000 entries and `maxBatchBytes` (1 MiB)
   * sent one after another, and says what happened to each by its index in `entries`, so failed
   * entries can be resubmitted alone.
   *
   * - `entries` that are no list reject with a `RequestValidationError` naming them; an entry that
   *   breaks a rule of the spec is failed here, before anything is sent. The options are checked
   *   once, before anything is sent: a typo or a bad value (`signal` that is no `AbortSignal`)
   *   rejects the run with a `RequestValidationError` naming it.
   * - A request refused whole for a category that is not available changed nothing: the run reads
   *   the available categories once, fails every entry of the run whose category is not among them,
   *   and sends the request again without those (a few requests, however many entries are bad).
   *   A request refused whole for another entry's rule fails that entry and is sent again without it.
   * - A request that fails otherwise (connection, 5xx, 401) fails its entries, with the error.
   * - `signal` is honoured between requests: a request under way is not cut (its entries are
   *   reported as the platform answered them), and the entries not sent yet are listed in `notSent`.
   * - A request is a write: never retried, whatever the options say.
   * - `onProgress` is called after each request, and once when no request was needed; `done`
   *   counts the entries handled so far in input order (sent, or failed here), so it only grows and
   *   ends at `total` unless the run is aborted.
   *
   * ```ts
   * const run = await client.accountChangeLog.logInBatches(entries, {
   *   onProgress: ({ done, total }) => console.log(`${done}/${total}`),
   * });
   * const retry = run.failed.map((f) => f.entry); // after fixing what their reason says
   * ```
   */
  logInBatches(entries: readonly ChangeLogEntry[], options?: LogInBatchesOptions): Promise<LogInBatchesResult> {
    return logInBatches(this, entries, options);
  }
}
