import type { APIPromise } from '../api-promise.js';
import type { RequestOptions } from '../client.js';
import { getAvailableCategories, logToAccounts } from '../endpoints.js';
import { APIError, RequestValidationError } from '../errors.js';
import {
  type AvailableCategoriesResponse,
  ChangeLogEntry,
  type ChangeLogPayload,
  type LogToAccountsRequest,
  type LogToAccountsResponse,
  MAX_CHANGE_LOGS_PER_REQUEST,
} from '../schemas/account-change-log.js';
import { platformErrorMap, primaryIssue } from '../schemas/common.js';
import { APIResource } from './resource.js';

/** How far a batch run has come. */
export interface BatchProgress {
  /** Entries judged so far (logged or refused). */
  done: number;
  /** Entries in the run. */
  total: number;
}

/** Options of {@link AccountChangeLog.logInBatches}: every request option, and the run's own. */
export interface LogInBatchesOptions extends Omit<RequestOptions, 'retryWrite'> {
  /** Entries per request, 1 to 1000. Default 1000. */
  batchSize?: number;
  /** Called after each request with the progress of the run. */
  onProgress?: (progress: BatchProgress) => void;
}

/** An entry the run did not log, by its index in the caller's list. */
export interface ChangeLogFailure {
  /** The entry's index in the list given to {@link AccountChangeLog.logInBatches}. */
  index: number;
  /** The entry. */
  entry: ChangeLogEntry;
  /** Why: the platform's `error_message`, or the error of its whole request. */
  reason: string;
  /**
   * The error of its request, when the whole request failed. After a connection error or a 5xx the
   * platform may have logged the entry anyway: resubmitting it may log it twice.
   */
  error?: unknown;
}

/** What {@link AccountChangeLog.logInBatches} did with each entry. */
export interface LogInBatchesResult {
  /** Indexes of the entries logged, in order. */
  logged: number[];
  /** The entries refused or not logged, each with its index: resubmit them alone. */
  failed: ChangeLogFailure[];
  /** Indexes of the entries never sent, because the signal aborted the run. */
  notSent: number[];
  /** Whether the signal aborted the run. */
  aborted: boolean;
}

function sameEntry(payload: ChangeLogPayload, entry: ChangeLogEntry): boolean {
  return (
    payload.account_id === entry.account_id &&
    payload.cateogory === entry.category_type &&
    payload.message === entry.message &&
    payload.requested_by === entry.requested_by
  );
}

/** The index, within its request, of the entry a whole-request refusal names (`change_logs[3].category_type`). */
function refusedIndex(error: unknown): number | undefined {
  if (!(error instanceof APIError) || error.status !== 400 || !error.field) return undefined;
  const m = /^change_logs\[(\d+)\]/.exec(error.field);
  return m ? Number(m[1]) : undefined;
}

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
   * Logs any number of entries, in requests of at most 1000 sent one after another, and says what
   * happened to each by its index in `entries`, so failed entries can be resubmitted alone.
   *
   * - An entry that breaks a rule of the spec is failed here, before anything is sent.
   * - A request refused whole because of one entry (a category that is not available) fails that
   *   entry, and the rest of its request is sent again without it (a refused request changed nothing).
   * - A request that fails otherwise (connection, 5xx, 401) fails its entries, with the error.
   * - `signal` is honoured between requests: the entries not sent yet are listed in `notSent`.
   * - A request is a write: never retried automatically.
   *
   * ```ts
   * const run = await client.accountChangeLog.logInBatches(entries, {
   *   onProgress: ({ done, total }) => console.log(`${done}/${total}`),
   * });
   * const retry = run.failed.map((f) => f.entry); // after fixing what their reason says
   * ```
   */
  async logInBatches(
    entries: readonly ChangeLogEntry[],
    options: LogInBatchesOptions = {},
  ): Promise<LogInBatchesResult> {
    const { batchSize = MAX_CHANGE_LOGS_PER_REQUEST, onProgress, ...requestOptions } = options;
    if (!(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= MAX_CHANGE_LOGS_PER_REQUEST))
      throw new RequestValidationError([
        {
          code: 'custom',
          path: ['batchSize'],
          message: `Parameter must be an integer from 1 to ${MAX_CHANGE_LOGS_PER_REQUEST}`,
          input: batchSize,
        },
      ]);
    const result: LogInBatchesResult = { logged: [], failed: [], notSent: [], aborted: false };
    const valid: number[] = [];
    entries.forEach((entry, index) => {
      const checked = ChangeLogEntry.safeParse(entry, { error: platformErrorMap });
      if (checked.success) valid.push(index);
      else {
        const issue = primaryIssue(checked.error.issues);
        const field = issue?.path.join('.') || 'entry';
        result.failed.push({ index, entry, reason: `${field}: ${issue?.message ?? 'invalid entry'}` });
      }
    });
    let done = result.failed.length;
    const total = entries.length;
    const signal = requestOptions.signal;
    for (let start = 0; start < valid.length; start += batchSize) {
      if (signal?.aborted) {
        result.aborted = true;
        result.notSent.push(...valid.slice(start));
        break;
      }
      let pending = valid.slice(start, start + batchSize);
      while (pending.length > 0) {
        const batch = pending.map((i) => entries[i]!);
        let answer: LogToAccountsResponse;
        try {
          answer = await this.logToAccounts({ change_logs: batch }, requestOptions);
        } catch (error) {
          const at = refusedIndex(error);
          if (at !== undefined && at < pending.length) {
            // One entry refused the whole request, which changed nothing: fail it, send the rest.
            result.failed.push({ index: pending[at]!, entry: batch[at]!, reason: (error as Error).message, error });
            pending = pending.filter((_, i) => i !== at);
            done += 1;
            continue;
          }
          const reason = error instanceof Error ? error.message : String(error);
          for (const index of pending) result.failed.push({ index, entry: entries[index]!, reason, error });
          done += pending.length;
          if (signal?.aborted) result.aborted = true;
          break;
        }
        let ok = 0;
        let refused = 0;
        pending.forEach((index, i) => {
          const entry = batch[i]!;
          const error = answer.errors[refused];
          if (error && sameEntry(error.payload, entry)) {
            result.failed.push({ index, entry, reason: error.error_message });
            refused += 1;
          } else if (answer.ok[ok] === entry.account_id) {
            result.logged.push(index);
            ok += 1;
          } else {
            result.failed.push({ index, entry, reason: 'The platform did not report this entry' });
          }
        });
        done += pending.length;
        break;
      }
      onProgress?.({ done, total });
      if (result.aborted) {
        result.notSent.push(...valid.slice(start + batchSize));
        break;
      }
    }
    result.failed.sort((a, b) => a.index - b.index);
    return result;
  }
}
