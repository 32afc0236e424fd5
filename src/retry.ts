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

/** The headers a wait is read from, in order: RFC 9110's, then the rate-limit ones servers use. */
const RETRY_AFTER_HEADERS = [
  'retry-after',
  'ratelimit-reset',
  'x-ratelimit-retry-after',
  'x-ratelimit-reset',
  'x-rate-limit-reset',
] as const;

/** The header a throttled answer names its wait in, looked for as ky looks (`Retry-After` first). */
function retryAfterHeader(headers: Headers): { name: string; value: string } | undefined {
  for (const name of RETRY_AFTER_HEADERS) {
    const value = headers.get(name);
    if (value !== null) return { name, value };
  }
  return undefined;
}

/** An integer of seconds from this one on is an epoch time (2024-01-01), as ky and some servers use it. */
const EPOCH_FROM_SECONDS = Date.parse('2024-01-01') / 1000;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** RFC 9110's IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d\d) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d\d):(\d\d):(\d\d) GMT$/;
/** Its obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC850_DATE =
  /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d\d)-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-(\d\d) (\d\d):(\d\d):(\d\d) GMT$/;
/** Its obsolete asctime form, in UTC: `Sun Nov  6 08:49:37 1994`. */
const ASCTIME_DATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([ \d]\d) (\d\d):(\d\d):(\d\d) (\d{4})$/;

/** A date's six fields as its pattern captures them, each present when it matched. */
type DateFields = [whole: string, a: string, b: string, c: string, d: string, e: string, f: string];

/**
 * The instant of a date's fields (UTC), or `undefined` when they name none: a minute or a second
 * past its range, or a day or an hour past its own (`31 Feb`, `24:00:00`), which would roll into
 * the next day. A leap second (`23:59:60`, the only second 60 there is) is the second after `:59`.
 */
function utc(
  year: number,
  month: string,
  day: string,
  hour: string,
  minute: string,
  second: string,
): number | undefined {
  const [d, min, sec] = [Number(day), Number(minute), Number(second)];
  if (min > 59 || sec > 60) return undefined;
  const at = Date.UTC(year, MONTHS.indexOf(month), d, Number(hour), min, Math.min(sec, 59));
  return new Date(at).getUTCDate() === d ? at + (sec === 60 ? 1000 : 0) : undefined;
}

/**
 * An HTTP-date (RFC 9110, section 5.6.7) in any of its three forms, as an epoch time in ms; else
 * `undefined`. An RFC 850 date's two-digit year is the one of that century, or of the one before
 * when that would be more than 50 years ahead, as the RFC says.
 */
function httpDate(value: string, now = Date.now()): number | undefined {
  let match = IMF_FIXDATE.exec(value) as DateFields | null;
  if (match) {
    const [, day, month, year, hour, minute, second] = match;
    return utc(Number(year), month, day, hour, minute, second);
  }
  match = RFC850_DATE.exec(value) as DateFields | null;
  if (match) {
    const [, day, month, yy, hour, minute, second] = match;
    const thisYear = new Date(now).getUTCFullYear();
    let year = thisYear - (thisYear % 100) + Number(yy);
    if (year > thisYear + 50) year -= 100;
    return utc(year, month, day, hour, minute, second);
  }
  match = ASCTIME_DATE.exec(value) as DateFields | null;
  if (match) {
    // The day is space-padded (` 6`): `Number` reads it as 6.
    const [, month, day, hour, minute, second, year] = match;
    return utc(Number(year), month, day, hour, minute, second);
  }
  return undefined;
}

/**
 * The wait a throttled answer asks for, in ms (0 for a time already past); `undefined` when it
 * names none, or none this reads. `Retry-After` in RFC 9110's forms only: a number of seconds (digits
 * alone: not `-5`, `1.5` or `1e3`) or an HTTP-date (not `1, 2`, which `Date.parse` would take for a
 * day of 2001); a number of seconds from 2024-01-01 on (1704067200) is read as that epoch time, as
 * ky reads it (as a wait it would be 54 years). The rate-limit headers (`RateLimit-Reset`,
 * `X-RateLimit-Reset`...) the same way, as a number of seconds (or an epoch time), a fraction allowed.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const header = retryAfterHeader(headers);
  if (!header) return undefined;
  const { name, value } = header;
  let at: number | undefined;
  if (name === 'retry-after' ? /^\d+$/.test(value) : /^\d+(?:\.\d+)?$/.test(value)) {
    const seconds = Number(value);
    if (seconds < EPOCH_FROM_SECONDS) return seconds * 1000;
    at = seconds * 1000;
  } else if (name === 'retry-after') at = httpDate(value, now);
  return at === undefined ? undefined : Math.max(0, at - now);
}

/**
 * The wait before retry number `retryCount` (1 for the first), in ms, after an attempt answered
 * `answer` (or none, for a failure before an answer); `false` when that answer is not retried. A
 * 408, 429, 500, 502, 503 or 504 is retried (a 429 or 503 after the wait it asks for, {@link retryAfterMs},
 * failing at once when that is over `maxRetryAfter`); else, and when that wait cannot be read, an
 * exponential backoff capped by `max`, less a random 0-25% (jitter).
 */
export function retryWait(delays: RetryDelays, answer: Response | undefined, retryCount: number): number | false {
  if (answer) {
    if (!RETRY_STATUSES.includes(answer.status)) return false;
    const after = RETRY_AFTER_STATUSES.includes(answer.status) ? retryAfterMs(answer.headers) : undefined;
    // A longer wait than allowed fails now; one it cannot read is the backoff's.
    if (after !== undefined) return after > delays.maxRetryAfter ? false : after;
  }
  // Capped, then jittered: clients that all reached the cap still spread their retries out. The
  // power stays finite (2^1023), so the wait is a number even when `initial` is 0.
  return Math.min(delays.max, delays.initial * 2 ** Math.min(retryCount - 1, 1023)) * (1 - Math.random() * 0.25);
}
