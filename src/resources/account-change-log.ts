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

/** Account ids are hex: a platform may answer them in another letter case than they were sent. */
function sameId(a: string | undefined, b: string): boolean {
  return a !== undefined && a.toLowerCase() === b.toLowerCase();
}

function sameEntry(payload: ChangeLogPayload, entry: ChangeLogEntry): boolean {
  return (
    sameId(payload.account_id, entry.account_id) &&
    payload.cateogory === entry.category_type &&
    payload.message === entry.message &&
    payload.requested_by === entry.requested_by
  );
}

/**
 * The entry a whole-request refusal names (`change_logs[3].category_type`): its index within the
 * request, and whether the rule broken is the category's.
 */
function refusedEntry(error: unknown): { at: number; category: boolean } | undefined {
  if (!(error instanceof APIError) || error.status !== 400 || !error.field) return undefined;
  const m = /^change_logs\[(\d+)\](?:\.(\w+))?/.exec(error.field);
  return m ? { at: Number(m[1]), category: m[2] === 'category_type' } : undefined;
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
   * - A request refused whole for a category that is not available changed nothing: the run reads
   *   the available categories once, fails every entry of the run whose category is not among them,
   *   and sends the request again without those (a few requests, however many entries are bad).
   *   A request refused whole for another entry's rule fails that entry and is sent again without it.
   * - A request that fails otherwise (connection, 5xx, 401) fails its entries, with the error.
   * - `signal` is honoured between requests: the entries not sent yet are listed in `notSent`.
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
  async logInBatches(
    entries: readonly ChangeLogEntry[],
    options: LogInBatchesOptions = {},
  ): Promise<LogInBatchesResult> {
    const { batchSize = MAX_CHANGE_LOGS_PER_REQUEST, onProgress, ...rest } = options;
    if (!(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= MAX_CHANGE_LOGS_PER_REQUEST))
      throw new RequestValidationError([
        {
          code: 'custom',
          path: ['batchSize'],
          message: `Parameter must be an integer from 1 to ${MAX_CHANGE_LOGS_PER_REQUEST}`,
          input: batchSize,
        },
      ]);
    // A chunk is a write: never retried, even when a caller's options (typed or not) ask for it.
    const requestOptions: RequestOptions = { ...rest, retryWrite: false };
    const result: LogInBatchesResult = { logged: [], failed: [], notSent: [], aborted: false };
    const fail = (index: number, reason: string, error?: unknown) =>
      result.failed.push(
        error === undefined
          ? { index, entry: entries[index]!, reason }
          : { index, entry: entries[index]!, reason, error },
      );
    /** The indexes still to send, in input order. */
    let queue: number[] = [];
    entries.forEach((entry, index) => {
      const checked = ChangeLogEntry.safeParse(entry, { error: platformErrorMap });
      if (checked.success) queue.push(index);
      else {
        const issue = primaryIssue(checked.error.issues);
        const field = issue?.path.join('.') || 'entry';
        fail(index, `${field}: ${issue?.message ?? 'invalid entry'}`);
      }
    });
    const total = entries.length;
    const signal = requestOptions.signal;
    /** Read once, at the first refusal for a category: the categories the platform accepts (null: unreadable). */
    let available: Set<string> | null | undefined;
    /**
     * Fails the entries still to send (the request's `pending`, and the later ones in `queue`)
     * whose category `keep` refuses, in one go; answers the request's pending entries kept.
     */
    const dropCategories = (pending: number[], keep: (category: string) => boolean, reason: (c: string) => string) => {
      const kept = (i: number) => {
        const category = entries[i]!.category_type;
        if (keep(category)) return true;
        fail(i, reason(category));
        return false;
      };
      queue = queue.filter(kept);
      return pending.filter(kept);
    };
    let sent = 0;
    while (queue.length > 0) {
      if (signal?.aborted) {
        result.aborted = true;
        break;
      }
      let pending = queue.slice(0, batchSize);
      queue = queue.slice(batchSize);
      while (pending.length > 0) {
        const batch = pending.map((i) => entries[i]!);
        let answer: LogToAccountsResponse;
        try {
          sent += 1;
          answer = await this.logToAccounts({ change_logs: batch }, requestOptions);
        } catch (error) {
          const refused = refusedEntry(error);
          if (refused && refused.at < pending.length) {
            // The request was refused whole and changed nothing: fail what it names, send the rest.
            const named = pending[refused.at]!;
            const message = (error as Error).message;
            pending = pending.filter((i) => i !== named);
            if (!refused.category) {
              fail(named, message, error);
              continue;
            }
            const category = entries[named]!.category_type;
            if (available === undefined) {
              try {
                const { items } = await this.availableCategories(requestOptions);
                available = new Set(items.map((c) => c.category_type));
              } catch {
                available = null;
              }
            }
            const list = available;
            const known = list?.has(category) === false;
            const reason = (c: string) =>
              known ? `category_type: "${c}" is not one of the available categories` : message;
            fail(named, reason(category), error);
            // Every entry whose category is not available goes at once; when the categories cannot be
            // read (or the list disagrees with the refusal), at least every entry of the refused one.
            pending = dropCategories(pending, known ? (c) => list!.has(c) : (c) => c !== category, reason);
            continue;
          }
          const reason = error instanceof Error ? error.message : String(error);
          for (const index of pending) fail(index, reason, error);
          if (signal?.aborted) result.aborted = true;
          break;
        }
        let ok = 0;
        let refused = 0;
        pending.forEach((index, i) => {
          const entry = batch[i]!;
          const error = answer.errors[refused];
          if (error && sameEntry(error.payload, entry)) {
            fail(index, error.error_message);
            refused += 1;
          } else if (sameId(answer.ok[ok], entry.account_id)) {
            result.logged.push(index);
            ok += 1;
          } else {
            fail(index, 'The platform did not report this entry');
          }
        });
        break;
      }
      // Every entry before the next one to send is handled: sent, or failed here.
      onProgress?.({ done: queue[0] ?? total, total });
      if (result.aborted) break;
    }
    if (sent === 0 && !result.aborted) onProgress?.({ done: total, total });
    result.notSent.push(...queue);
    result.failed.sort((a, b) => a.index - b.index);
    return result;
  }
}
