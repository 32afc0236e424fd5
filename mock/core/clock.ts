import { PlatformError } from './errors.js';

/**
 * The platform's clock. Every expiry and every "inactive product" decision reads it. Time keeps
 * flowing from the point it was set to: the clock is the real time plus an offset.
 */
export interface Clock {
  /** The platform's current time. */
  now(): Date;
  /** Moves the clock forward (or back, when negative) by `seconds`. */
  advance(seconds: number): void;
  /** Sets the current time; time keeps flowing from there. */
  set(now: Date | string): void;
}

/** Reads a date, or refuses it as an invalid `field`. */
export function toDate(value: Date | string, field: string): Date {
  const d = typeof value === 'string' ? new Date(value) : new Date(value.getTime());
  if (Number.isNaN(d.getTime()))
    throw new PlatformError(400, 'invalid_parameter', 'Parameter must be a valid date-time', field);
  return d;
}

/** The platform's clock with the `reset()` the platform needs. */
export class OffsetClock implements Clock {
  private offset = 0;

  constructor(private readonly initial: Date | string | undefined) {
    this.reset();
  }

  /** Back to the time given at creation (or the real time). */
  reset(): void {
    this.offset = 0;
    if (this.initial !== undefined) this.set(this.initial);
  }

  now(): Date {
    return new Date(Date.now() + this.offset);
  }

  /** The current time in milliseconds since the epoch. */
  nowMs(): number {
    return Date.now() + this.offset;
  }

  advance(seconds: number): void {
    if (!Number.isFinite(seconds))
      throw new PlatformError(400, 'invalid_parameter', 'Parameter must be a finite number', 'advance_seconds');
    this.offset += seconds * 1000;
  }

  set(now: Date | string): void {
    this.offset = toDate(now, 'now').getTime() - Date.now();
  }
}
