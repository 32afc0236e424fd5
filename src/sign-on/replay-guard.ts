/**
 * Single use of tickets on the site's side (spec: Authentication point 7; RFC 6749 section 10.5):
 * a site remembers the tickets it has processed and refuses a second use, but a ticket whose
 * validation failed is not marked as used. The spec suggests remembering tickets for 120 s (Limits).
 */
import { SignOnConfigurationError, TicketReplayError } from './errors.js';
import { sha256Hex } from './internal.js';

/** How long a used ticket is remembered by default, in seconds (spec: Limits, "a reuse cache of 120 seconds"). */
export const DEFAULT_TICKET_REUSE_SECONDS = 120;

/**
 * Where a {@link ReplayGuard} remembers used tickets. Keys are already hashed: a store never sees a
 * ticket.
 *
 * One process can use {@link MemoryTicketStore}. A site served by several processes or hosts must
 * share one store, or a replayed ticket that lands on another process is accepted. With Redis the
 * two methods are one command each (`SET ... NX` is atomic):
 *
 * ```ts
 * const redisTicketStore: TicketStore = {
 *   async claim(key, ttlSeconds) {
 *     return (await redis.set(key, '1', { NX: true, EX: ttlSeconds })) === 'OK'; // SET key 1 NX EX 120
 *   },
 *   async release(key) {
 *     await redis.del(key);
 *   },
 * };
 * const guard = new ReplayGuard({ store: redisTicketStore });
 * ```
 */
export interface TicketStore {
  /**
   * Atomically records `key` for `ttlSeconds` if it is absent (or expired).
   *
   * @returns `true` when this call recorded the key, `false` when it was already present
   */
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  /** Forgets `key`, so that it can be claimed again. */
  release(key: string): Promise<void>;
}

/** Options of {@link MemoryTicketStore}. */
export interface MemoryTicketStoreOptions {
  /** The clock, in milliseconds since the epoch; defaults to `Date.now`. Inject one in tests. */
  now?: () => number;
  /** How many of the oldest entries one `claim` looks at to drop expired ones. Default 32. */
  sweepBatch?: number;
}

/**
 * An in-memory {@link TicketStore} for a single process (the default of {@link ReplayGuard}).
 *
 * Entries expire on the store's clock. Each `claim` first drops expired entries from the oldest end,
 * at most `sweepBatch` of them, so the work per call is bounded and memory follows the ticket rate
 * over the last TTL. A claim and its check run with no `await` in between, so they are atomic within
 * the process.
 */
export class MemoryTicketStore implements TicketStore {
  readonly #entries = new Map<string, number>();
  readonly #now: () => number;
  readonly #sweepBatch: number;

  /**
   * An empty store.
   * @param options - clock and sweep size
   */
  constructor(options: MemoryTicketStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#sweepBatch = options.sweepBatch ?? 32;
  }

  /** How many keys are held, expired ones not yet swept included. */
  get size(): number {
    return this.#entries.size;
  }

  /** {@inheritDoc TicketStore.claim} */
  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    const now = this.#now();
    this.#sweep(now);
    const expiresAt = this.#entries.get(key);
    if (expiresAt !== undefined && expiresAt > now) return false;
    // Delete first so that the entry moves to the newest end of the Map's insertion order.
    this.#entries.delete(key);
    this.#entries.set(key, now + ttlSeconds * 1000);
    return true;
  }

  /** {@inheritDoc TicketStore.release} */
  async release(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  /** Maps keep insertion order; with one TTL that is expiry order, so stop at the first live entry. */
  #sweep(now: number): void {
    let looked = 0;
    for (const [key, expiresAt] of this.#entries) {
      if (looked++ >= this.#sweepBatch || expiresAt > now) return;
      this.#entries.delete(key);
    }
  }
}

/** Options of {@link ReplayGuard}. */
export interface ReplayGuardOptions {
  /** Where used tickets are remembered. Default: a new {@link MemoryTicketStore} (one process only). */
  store?: TicketStore;
  /** How long a used ticket is remembered, in seconds. Default 120 ({@link DEFAULT_TICKET_REUSE_SECONDS}). */
  ttlSeconds?: number;
  /** Prefix of the store keys, to share a store (e.g. one Redis) with other data. Default `sign-on:ticket:`. */
  keyPrefix?: string;
}

/**
 * Lets each ticket through once. `use(ticket, fn)` claims the ticket before `fn` runs (so a second
 * use, sequential or concurrent, is refused with {@link TicketReplayError} and never reaches the
 * authorization API), keeps the claim for 120 s when `fn` succeeds, and releases it when `fn` throws:
 * a ticket whose validation failed is not marked as used (spec: Authentication point 7).
 *
 * Store keys are `keyPrefix` + SHA-256 (hex) of the ticket: tickets are credentials and are never
 * stored raw.
 *
 * @example
 * ```ts
 * const guard = new ReplayGuard(); // one process; pass { store } for several (see TicketStore)
 * const tokens = await guard.use(ticket, () => client.authorization.exchangeTicket({ ticket }));
 * ```
 */
export class ReplayGuard {
  readonly #store: TicketStore;
  readonly #ttlSeconds: number;
  readonly #keyPrefix: string;

  /**
   * A guard over `options.store` (in memory by default).
   * @param options - store, reuse window and key prefix
   */
  constructor(options: ReplayGuardOptions = {}) {
    const ttl = options.ttlSeconds ?? DEFAULT_TICKET_REUSE_SECONDS;
    if (!Number.isInteger(ttl) || ttl <= 0) {
      throw new SignOnConfigurationError('ttlSeconds', 'ttlSeconds must be a positive integer');
    }
    this.#store = options.store ?? new MemoryTicketStore();
    this.#ttlSeconds = ttl;
    this.#keyPrefix = options.keyPrefix ?? 'sign-on:ticket:';
  }

  /**
   * Runs `fn` (typically the ticket exchange, endpoint 23) only if `ticket` has not been used.
   *
   * @param ticket - the ticket about to be used
   * @param fn - the use; if it throws, the ticket is released and the error is rethrown as-is
   * @returns what `fn` returns
   * @throws {@link TicketReplayError} when the ticket was already claimed
   */
  async use<T>(ticket: string, fn: () => Promise<T>): Promise<T> {
    const hash = await sha256Hex(ticket);
    const key = this.#keyPrefix + hash;
    if (!(await this.#store.claim(key, this.#ttlSeconds))) throw new TicketReplayError(hash);
    let result: T;
    try {
      result = await fn();
    } catch (error) {
      try {
        await this.#store.release(key);
      } catch {
        // Fail closed: if the store cannot release, the ticket stays refused, which is safe.
      }
      throw error;
    }
    return result;
  }
}
