import * as z from 'zod';
import { HttpError } from './errors.js';
import { integerIn, validate } from './validate.js';

/**
 * The platform's clock. Every expiry and every "inactive product" decision reads it. Time keeps
 * flowing from the point it was set to, unless the clock is frozen: then it stands still until it
 * is resumed, so a test can check an expiry at exactly its instant.
 */
export interface Clock {
  /** The platform's current time. */
  now(): Date;
  /**
   * Moves the clock forward (or back, when negative) by `seconds`. Refused (400 `invalid_parameter`,
   * field `advance_seconds`) when the time would leave the years 0001 to 9998; nothing changes then.
   */
  advance(seconds: number): void;
  /**
   * Sets the current time; time keeps flowing from there (or stands still there, when frozen).
   * Refused (400 `invalid_parameter`, field `now`) for an invalid date or one outside the years 0001 to 9998.
   */
  set(now: Date | string): void;
  /** Stops the clock at the current time: `now()` answers the same instant until {@link Clock.resume}. */
  freeze(): void;
  /** Lets a frozen clock flow again from the instant it stands at. */
  resume(): void;
  /** Whether the clock stands still. */
  readonly frozen: boolean;
}

/** Waits `ms` milliseconds of real time (the platform clock does not move for it). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The earliest time the clock may show: dates are written with four-digit years. */
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
/**
 * The latest time the clock may show, and the latest date the platform writes: a clock that flows
 * past it stands still there, and an expiry or a period's end beyond it is written as it.
 */
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');
/**
 * The latest time the clock may be set or advanced to: the last year is left for what is added to
 * the clock (lifetimes, periods) and for the time that flows on, so that a token issued at any
 * settable time lives its whole default lifetime.
 */
export const LATEST_SETTABLE = Date.parse('9998-12-31T23:59:59.999Z');

/** The longest lifetime of a token or ticket, in seconds (100 years): an option or test tool asking for more is refused. */
export const MAX_LIFETIME_SECONDS = 3_155_760_000;

/** A lifetime of a token or ticket in seconds: a positive integer up to {@link MAX_LIFETIME_SECONDS}. */
export const LifetimeSeconds = integerIn(
  1,
  MAX_LIFETIME_SECONDS,
  `a positive integer of at most ${MAX_LIFETIME_SECONDS}`,
);

/** A lifetime in seconds ({@link LifetimeSeconds}), or a refusal naming `field`. */
export function lifetime(seconds: number, field: string): number {
  return validate(LifetimeSeconds, seconds, field);
}

/** An instant as the document writes it: never past {@link LATEST} (nor an instant no date can show). */
export function dateText(ms: number): string {
  return new Date(Number.isNaN(ms) ? LATEST : Math.min(ms, LATEST)).toISOString();
}

/** The instant `seconds` after `fromMs`, as the document writes it; never past the latest time a date can show. */
export function expiryAfter(fromMs: number, seconds: number): string {
  return dateText(fromMs + seconds * 1000);
}

const OUT_OF_RANGE = 'Parameter must keep the clock between 0001-01-01T00:00:00Z and 9998-12-31T23:59:59.999Z';
const NOT_A_DATE = 'Parameter must be a valid date-time';

/** A time in epoch milliseconds the clock may show, or a refusal naming `field`. */
function inRange(ms: number, field: string): number {
  if (!(Number.isFinite(ms) && ms >= EARLIEST && ms <= LATEST_SETTABLE))
    throw new HttpError(400, 'invalid_parameter', OUT_OF_RANGE, field);
  return ms;
}

/**
 * Whether the calendar day a text opens with (`2030-02-30...`) exists: `new Date` reads a day past
 * its month's end as one in the next month (2030-03-02), where it should refuse it.
 */
function dayExists(text: string): boolean {
  const written = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!written) return true;
  const [year, month, day] = [Number(written[1]), Number(written[2]), Number(written[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A time the clock may be set to (a `Date`, or a string `new Date` reads), as epoch milliseconds:
 * a valid date within the years 0001 to 9998.
 */
export const ClockTime = z.union([z.date(), z.string()], { error: NOT_A_DATE }).transform((value, ctx) => {
  const ms = typeof value === 'string' ? new Date(value).getTime() : value.getTime();
  if (Number.isNaN(ms) || (typeof value === 'string' && !dayExists(value)))
    ctx.issues.push({ code: 'custom', message: NOT_A_DATE, input: value });
  else if (!(ms >= EARLIEST && ms <= LATEST_SETTABLE))
    ctx.issues.push({ code: 'custom', message: OUT_OF_RANGE, input: value });
  return ms;
});

/**
 * The platform's clock: the real time plus an offset, or a frozen instant; with the `reset()` the
 * platform needs. It never shows a time past {@link LATEST}: flowing there, it stands still.
 */
export class OffsetClock implements Clock {
  #offset = 0;
  #stoppedAt: number | undefined;
  readonly #initial: number | undefined;

  /** @param initialMs - where the clock starts (and returns on reset), a {@link ClockTime}; the real time when absent */
  constructor(initialMs: number | undefined) {
    this.#initial = initialMs;
    this.reset();
  }

  /** Back to the time given at creation (or the real time), flowing. */
  reset(): void {
    this.#stoppedAt = undefined;
    this.#offset = this.#initial === undefined ? 0 : this.#initial - Date.now();
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** The current time in milliseconds since the epoch. */
  nowMs(): number {
    return Math.min(this.#stoppedAt ?? Date.now() + this.#offset, LATEST);
  }

  get frozen(): boolean {
    return this.#stoppedAt !== undefined;
  }

  advance(seconds: number): void {
    if (!Number.isFinite(seconds))
      throw new HttpError(400, 'invalid_parameter', 'Parameter must be a finite number', 'advance_seconds');
    this.#moveTo(inRange(this.nowMs() + seconds * 1000, 'advance_seconds'));
  }

  set(now: Date | string): void {
    this.#moveTo(validate(ClockTime, now, 'now'));
  }

  freeze(): void {
    this.#stoppedAt ??= this.nowMs();
  }

  resume(): void {
    if (this.#stoppedAt === undefined) return;
    this.#offset = this.#stoppedAt - Date.now();
    this.#stoppedAt = undefined;
  }

  #moveTo(ms: number): void {
    if (this.#stoppedAt !== undefined) this.#stoppedAt = ms;
    else this.#offset = ms - Date.now();
  }
}

/** The most parsed times {@link timeMs} keeps; past it, it starts over. */
const MAX_PARSED_TIMES = 10_000;
const parsedTimes = new Map<string, number>();

/**
 * `Date.parse` of a record's time, kept by its text: a token's expiry and a product's window are
 * read on every request that touches them, and a record whose time changes simply brings a new text.
 */
export function timeMs(text: string): number {
  let ms = parsedTimes.get(text);
  if (ms === undefined) {
    if (parsedTimes.size >= MAX_PARSED_TIMES) parsedTimes.clear();
    ms = Date.parse(text);
    parsedTimes.set(text, ms);
  }
  return ms;
}
