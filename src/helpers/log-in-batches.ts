/**
 * Bulk change-log writing (endpoint 4) over any number of entries: `accountChangeLog.logInBatches`.
 * A run checks every entry first, sends requests of at most 1000 entries and 1 MiB one after
 * another, and accounts for each entry by its index, so that failed ones can be resubmitted alone.
 */

import { APIError, RequestValidationError } from '../errors.js';
import { sameId } from '../ids.js';
import type { RequestOptions } from '../request.js';
import {
  type AvailableCategoriesResponse,
  ChangeLogEntry,
  type ChangeLogPayload,
  type LogToAccountsRequest,
  type LogToAccountsResponse,
  MAX_CHANGE_LOGS_PER_REQUEST,
} from '../schemas/account-change-log.js';
import { platformErrorMap, primaryIssue } from '../schemas/common.js';
import { checkOption, checkRunOptions } from './check-option.js';

/** How far a batch run has come. */
export interface BatchProgress {
  /** Entries handled so far (logged or refused). */
  done: number;
  /** Entries in the run. */
  total: number;
}

/**
 * Options of {@link AccountChangeLog.logInBatches}: the request options of each request, and the
 * run's own. Not `retryWrite` nor `maxRetries`: a request of a run is a write, never retried.
 */
export interface LogInBatchesOptions extends Omit<RequestOptions, 'retryWrite' | 'maxRetries'> {
  /** Entries per request, 1 to 1000. Default 1000. */
  batchSize?: number;
  /**
   * The most bytes of a request's body (its JSON, in UTF-8), 8192 or more: a request takes fewer
   * entries than `batchSize` when they would go over it. Default 1048576 (1 MiB, a common limit of
   * servers and proxies: 1,000 entries of the spec's longest fields are 1.23 MB).
   */
  maxBatchBytes?: number;
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

/** The calls a batch run makes: the resource's endpoint 4 and its categories. */
export interface ChangeLogWriter {
  /** Log to accounts (endpoint 4). */
  logToAccounts(body: LogToAccountsRequest, options?: RequestOptions): Promise<LogToAccountsResponse>;
  /** The categories the platform accepts. */
  availableCategories(options?: RequestOptions): Promise<AvailableCategoriesResponse>;
}

/** The default of {@link LogInBatchesOptions.maxBatchBytes}: 1 MiB. */
const DEFAULT_MAX_BATCH_BYTES = 1024 * 1024;
/** The least {@link LogInBatchesOptions.maxBatchBytes}: above the largest valid entry (7.4 KB, every character escaped). */
const MIN_BATCH_BYTES = 8192;
/** The body of a request with no entries: `{"change_logs":[]}`. */
const EMPTY_BODY_BYTES = '{"change_logs":[]}'.length;

/** How many bytes `text` takes in UTF-8 (a lone surrogate as U+FFFD, as `fetch` sends it). */
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Whether the platform's refused payload is this entry, as the run sent it. */
function sameEntry(payload: ChangeLogPayload, entry: ChangeLogEntry): boolean {
  return (
    sameId(payload.account_id, entry.account_id) &&
    payload.cateogory === entry.category_type &&
    payload.message === entry.message &&
    payload.requested_by === entry.requested_by
  );
}

/** A request refused whole for one entry's rule (`change_logs[3].category_type`), which changed nothing. */
interface WholeRefusal {
  /** The refusal. */
  error: APIError;
  /** The entry's position within the request. */
  at: number;
  /** Whether the rule broken is the category's. */
  category: boolean;
}

/** The entry a whole-request refusal names, if the error is one. */
function wholeRefusalOf(error: unknown): WholeRefusal | undefined {
  if (!(error instanceof APIError) || error.status !== 400 || !error.field) return undefined;
  const named = /^change_logs\[(\d+)\](?:\.(\w+))?/.exec(error.field);
  return named ? { error, at: Number(named[1]), category: named[2] === 'category_type' } : undefined;
}

/**
 * Logs `entries` through `writer` in requests of at most `batchSize`, one after another; see
 * {@link AccountChangeLog.logInBatches} for what a run does with each entry.
 */
export async function logInBatches(
  writer: ChangeLogWriter,
  entries: readonly ChangeLogEntry[],
  options: LogInBatchesOptions = {},
): Promise<LogInBatchesResult> {
  const {
    batchSize = MAX_CHANGE_LOGS_PER_REQUEST,
    maxBatchBytes = DEFAULT_MAX_BATCH_BYTES,
    onProgress,
    signal,
    ...rest
  } = options;
  if (!Array.isArray(entries))
    throw new RequestValidationError([
      {
        code: 'custom',
        path: ['entries'],
        message: 'Parameter must be a list of change-log entries',
        input: undefined,
      },
    ]);
  checkOption('batchSize', batchSize, 1, MAX_CHANGE_LOGS_PER_REQUEST);
  checkOption('maxBatchBytes', maxBatchBytes, MIN_BATCH_BYTES, Number.MAX_SAFE_INTEGER);
  // The signal is the run's, read between requests, not given to them: a request cut by it may have
  // been logged all the same, and its entries could not be told apart from ones never logged.
  const runSignal = checkRunOptions(signal, rest);
  // A chunk is a write: never retried, even when a caller's options (typed or not) ask for it.
  return new BatchRun(writer, entries, { ...rest, retryWrite: false }, runSignal).run(
    { batchSize, maxBatchBytes },
    onProgress,
  );
}

/** One run of {@link logInBatches}: the entries still to send, and what happened to the others. */
class BatchRun {
  readonly #writer: ChangeLogWriter;
  readonly #entries: readonly ChangeLogEntry[];
  readonly #options: RequestOptions;
  readonly #result: LogInBatchesResult = { logged: [], failed: [], notSent: [], aborted: false };
  /** The indexes still to send, in input order. */
  #queue: number[];
  /** Read once, at the first refusal for a category: the categories the platform accepts (null: unreadable). */
  #available: Set<string> | null | undefined;
  /** Requests sent so far. */
  #requests = 0;

  /** What stops the run between two requests. */
  readonly #signal: AbortSignal | undefined;

  constructor(
    writer: ChangeLogWriter,
    entries: readonly ChangeLogEntry[],
    options: RequestOptions,
    signal: AbortSignal | undefined,
  ) {
    this.#writer = writer;
    this.#entries = entries;
    this.#options = options;
    this.#signal = signal;
    this.#queue = this.#checkEntries();
  }

  /** Sends the entries in batches until none is left or the signal aborts; reports progress after each. */
  async run(
    limits: { batchSize: number; maxBatchBytes: number },
    onProgress: ((progress: BatchProgress) => void) | undefined,
  ): Promise<LogInBatchesResult> {
    const result = this.#result;
    const total = this.#entries.length;
    while (this.#queue.length > 0) {
      if (this.#signal?.aborted) {
        result.aborted = true;
        break;
      }
      await this.#sendBatch(this.#queue.splice(0, this.#nextBatchLength(limits)));
      // Every entry before the next one to send is handled: sent, or failed here.
      onProgress?.({ done: this.#queue[0] ?? total, total });
      if (result.aborted) break;
    }
    if (this.#requests === 0 && !result.aborted) onProgress?.({ done: total, total });
    result.notSent.push(...this.#queue);
    result.failed.sort((a, b) => a.index - b.index);
    return result;
  }

  /**
   * How many of the next entries of the queue go in one request: at most `batchSize`, and no more
   * than keep its body within `maxBatchBytes` (always at least one).
   */
  #nextBatchLength({ batchSize, maxBatchBytes }: { batchSize: number; maxBatchBytes: number }): number {
    let bytes = EMPTY_BODY_BYTES;
    let n = 0;
    while (n < batchSize && n < this.#queue.length) {
      // Each entry after the first adds a comma.
      const entryBytes = utf8Bytes(JSON.stringify(this.#entries[this.#queue[n]!])) + (n > 0 ? 1 : 0);
      if (n > 0 && bytes + entryBytes > maxBatchBytes) break;
      bytes += entryBytes;
      n++;
    }
    return n;
  }

  /** The indexes of the entries that keep the spec's rules; the others fail here, before anything is sent. */
  #checkEntries(): number[] {
    const valid: number[] = [];
    // Every index, a hole of a sparse list too (forEach would skip it): each is reported.
    for (let index = 0; index < this.#entries.length; index++) {
      const checked = ChangeLogEntry.safeParse(this.#entries[index], { error: platformErrorMap });
      if (checked.success) {
        valid.push(index);
        continue;
      }
      const issue = primaryIssue(checked.error.issues);
      const field = issue?.path.join('.') || 'entry';
      this.#fail(index, `${field}: ${issue?.message ?? 'invalid entry'}`);
    }
    return valid;
  }

  /**
   * Sends one batch (indexes into the entries) until the platform processes it: a request refused
   * whole for one entry changed nothing, and is sent again without that entry.
   */
  async #sendBatch(pending: number[]): Promise<void> {
    while (pending.length > 0) {
      const batch = pending.map((index) => this.#entries[index]!);
      let answer: LogToAccountsResponse;
      try {
        this.#requests += 1;
        answer = await this.#writer.logToAccounts({ change_logs: batch }, this.#options);
      } catch (error) {
        const refusal = wholeRefusalOf(error);
        if (refusal && refusal.at < pending.length) {
          pending = await this.#withoutRefused(pending, refusal);
          continue;
        }
        this.#failRequest(pending, error);
        return;
      }
      this.#readAnswer(pending, answer);
      return;
    }
  }

  /**
   * After a refusal of the whole request: the entry it names fails, and for a category that is not
   * available every entry still to send with that category fails too; answers the batch to send again.
   */
  async #withoutRefused(pending: number[], refusal: WholeRefusal): Promise<number[]> {
    const named = pending[refusal.at]!;
    const rest = pending.filter((index) => index !== named);
    const { message } = refusal.error;
    if (!refusal.category) {
      this.#fail(named, message, refusal.error);
      return rest;
    }
    const category = this.#entries[named]!.category_type;
    const available = await this.#availableCategories();
    // Every entry whose category is not available goes at once; when the categories cannot be read
    // (or the list disagrees with the refusal), at least every entry of the refused one.
    const unavailable = available?.has(category) === false;
    const reason = (c: string) =>
      unavailable ? `category_type: "${c}" is not one of the available categories` : message;
    const kept = (c: string) => (unavailable && available ? available.has(c) : c !== category);
    this.#fail(named, reason(category), refusal.error);
    return this.#dropCategories(rest, kept, reason);
  }

  /** The categories the platform accepts, read once per run; null when they cannot be read. */
  async #availableCategories(): Promise<Set<string> | null> {
    if (this.#available === undefined) {
      try {
        const { items } = await this.#writer.availableCategories(this.#options);
        this.#available = new Set(items.map((c) => c.category_type));
      } catch {
        this.#available = null;
      }
    }
    return this.#available;
  }

  /**
   * Fails the entries still to send (the batch's `pending`, and the later ones in the queue) whose
   * category `kept` refuses, in one go; answers the batch's entries kept.
   */
  #dropCategories(
    pending: number[],
    kept: (category: string) => boolean,
    reason: (category: string) => string,
  ): number[] {
    const keep = (index: number) => {
      const category = this.#entries[index]!.category_type;
      if (kept(category)) return true;
      this.#fail(index, reason(category));
      return false;
    };
    this.#queue = this.#queue.filter(keep);
    return pending.filter(keep);
  }

  /** A processed request (207): each entry logged, refused by the platform, or not reported. */
  #readAnswer(pending: number[], answer: LogToAccountsResponse): void {
    let ok = 0;
    let refused = 0;
    for (const index of pending) {
      const entry = this.#entries[index]!;
      const error = answer.errors[refused];
      if (error && sameEntry(error.payload, entry)) {
        this.#fail(index, error.error_message);
        refused += 1;
      } else if (sameId(answer.ok[ok], entry.account_id)) {
        this.#result.logged.push(index);
        ok += 1;
      } else {
        this.#fail(index, 'The platform did not report this entry');
      }
    }
  }

  /** A request that failed otherwise (connection, 5xx, 401): each of its entries fails, with the error. */
  #failRequest(pending: number[], error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    for (const index of pending) this.#fail(index, reason, error);
  }

  #fail(index: number, reason: string, error?: unknown): void {
    const entry = this.#entries[index]!;
    this.#result.failed.push(error === undefined ? { index, entry, reason } : { index, entry, reason, error });
  }
}
