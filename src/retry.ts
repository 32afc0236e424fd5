/**
 * How long a call waits before its next attempt: the `Retry-After` a throttled answer asks for, or
 * an exponential backoff with jitter. Which failures are retried at all is the attempt loop's rule
 * (`src/attempts.ts`); this module only says how long, or that an answer is not worth a retry.
 */

/** The statuses a read is retried on. */
const RETRY_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];
/** The statuses whose `Retry-After` is honoured. */
const RETRY_AFTER_STATUSES: readonly number[] = [429, 503];

/** The client's retry delays: `retryDelay` and `maxRetryAfter`. */
export interface RetryDelays {
  /** Delay before the first retry, in ms. */
  readonly initial: number;
  /** Upper bound of one backoff delay, in ms. */
  readonly max: number;
  /** The longest `Retry-After` honoured, in ms. */
  readonly maxRetryAfter: number;
}

/** The header a throttled answer names its wait in, looked for as ky looks (`Retry-After` first). */
function retryAfterHeader(headers: Headers): string | null {
  return (
    headers.get('retry-after') ??
    headers.get('ratelimit-reset') ??
    headers.get('x-ratelimit-retry-after') ??
    headers.get('x-ratelimit-reset') ??
    headers.get('x-rate-limit-reset')
  );
}

/**
 * The wait a throttled answer asks for, in ms, read as ky reads it (`Retry-After` in seconds or
 * as a date, or a rate-limit reset header); `undefined` when none.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = retryAfterHeader(headers);
  if (!value) return undefined;
  let after = Number(value) * 1000;
  if (Number.isNaN(after)) after = Date.parse(value) - now;
  else if (after >= Date.parse('2024-01-01')) after -= now; // a timestamp, as ky takes it
  return Number.isNaN(after) ? undefined : after;
}

/**
 * The wait before retry number `retryCount` (1 for the first), in ms, after an attempt answered
 * `answer` (or none, for a failure before an answer); `false` when that answer is not retried. A
 * 408, 429 or 5xx is retried (a 429 or 503 after its `Retry-After`, failing at once when that is
 * over `maxRetryAfter`); else an exponential backoff with jitter (0-25% less), capped by `max`.
 */
export function retryWait(delays: RetryDelays, answer: Response | undefined, retryCount: number): number | false {
  if (answer) {
    if (!RETRY_STATUSES.includes(answer.status)) return false;
    if (RETRY_AFTER_STATUSES.includes(answer.status) && retryAfterHeader(answer.headers)) {
      const after = retryAfterMs(answer.headers);
      // A wait it cannot read is maxRetryAfter (ky's reading); a longer wait than allowed fails now.
      if (after === undefined) return delays.maxRetryAfter;
      return after > delays.maxRetryAfter ? false : after;
    }
  }
  const backoff = delays.initial * 2 ** (retryCount - 1);
  const jittered = backoff * (1 - Math.random() * 0.25);
  return Math.min(delays.max, Number.isFinite(jittered) && jittered >= 0 ? jittered : backoff);
}
