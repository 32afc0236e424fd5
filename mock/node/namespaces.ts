/**
 * The standalone server's namespaces: `/_ns/{name}/...` is served by a platform of its own, made on
 * first use, so that parallel test workers sharing one server each reset and write without seeing
 * the others. A namespace made for a request is kept only when that request is accepted (a refusal
 * leaves none behind). A namespace is dropped after an idle time on the real clock, counted from
 * the end of its last request and never while one is in flight (each namespace's platform has a
 * clock of its own, which a test may stop or move), or on an admin's request; there are at most so
 * many at once.
 */
import { HttpError } from '../core/errors.js';

/** Where a namespace's paths start: `/_ns/{name}/...`. */
export const NAMESPACE_PREFIX = '/_ns/';

/** The most characters of a namespace's name. */
const NAMESPACE_NAME_MAX = 32;

/**
 * A namespace's name, but for its length: lower-case letters, digits and hyphens, a letter or digit
 * at each end. (The length is counted apart: a bounded repetition costs the ReDoS check seconds.)
 */
const NAMESPACE_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** Whether `name` is a namespace's name: 1 to 32 lower-case letters, digits and hyphens, a letter or digit at each end. */
export function isNamespaceName(name: string): boolean {
  return name.length <= NAMESPACE_NAME_MAX && NAMESPACE_NAME.test(name);
}

/** The refusal of a name that breaks the rule: `400 invalid_parameter`, field `namespace`. */
export function invalidNamespaceName(): HttpError {
  return new HttpError(
    400,
    'invalid_parameter',
    'A namespace is named by 1 to 32 lower-case letters, digits and hyphens, not a hyphen at either end: /_ns/{name}/...',
    'namespace',
  );
}

/** The base path of namespace `name`: `/_ns/{name}`. */
export function namespacePath(name: string): string {
  return `${NAMESPACE_PREFIX}${name}`;
}

/**
 * The namespace a request path names (`/_ns/{name}/...`, or `/_ns/{name}` alone); undefined for a
 * path outside every namespace. A name that breaks the rule is `400 invalid_parameter`, field
 * `namespace`.
 */
export function namespaceOf(path: string): string | undefined {
  if (!path.startsWith(NAMESPACE_PREFIX)) return undefined;
  const end = path.indexOf('/', NAMESPACE_PREFIX.length);
  const name = path.slice(NAMESPACE_PREFIX.length, end < 0 ? undefined : end);
  if (!isNamespaceName(name)) throw invalidNamespaceName();
  return name;
}

/** How often idle namespaces are looked for: a quarter of the idle time, from a second to a minute. */
export function sweepIntervalMs(idleMs: number): number {
  return Math.max(1_000, Math.min(60_000, Math.floor(idleMs / 4)));
}

/** Options of {@link Namespaces}. */
export interface NamespacesOptions<T> {
  /** How many namespaces at once; a new one beyond is `503 namespace_limit_reached`. */
  readonly max: number;
  /** How long a namespace may go without a request (from the end of its last one) before it is dropped, in ms. */
  readonly idleMs: number;
  /** Makes namespace `name` for a request to it; an `HttpError` it throws is the request's answer. */
  readonly create: (name: string) => T;
  /** Runs before an idle namespace is dropped (its state written); a request meanwhile keeps it. */
  readonly retire?: (name: string, namespace: T) => Promise<void> | void;
  /**
   * Runs once a namespace is gone and no request holds it any more (made for a request that was
   * refused, or dropped as idle): it is never used again (a server stops its state file's writer).
   */
  readonly closed?: (name: string, namespace: T) => void;
  /**
   * Runs when a namespace is dropped on request ({@link Namespaces.drop}), while it is still held:
   * whatever it keeps is removed (a server stops its state file's writer, waits for the write under
   * way and removes the file). Its name is free again once this is done.
   */
  readonly discard?: (name: string, namespace: T) => Promise<void> | void;
  /** The real clock, in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

/** A request's hold on a namespace, from {@link Namespaces.begin}: given back with `end` once the request is answered. */
export interface Lease<T> {
  readonly namespace: T;
  /** Whether the namespace is not kept yet: it was made for this request (or another still in flight), and none of them was accepted so far. */
  readonly pending: boolean;
  /**
   * The request is over. `accepted`: whether it keeps a namespace that is pending; one that no
   * request to it accepted is dropped once the last of them ends. Calls after the first do nothing.
   */
  end(accepted: boolean): void;
}

/** A namespace in the server's list ({@link Namespaces.list}). */
export interface NamespaceEntry<T> {
  readonly name: string;
  readonly namespace: T;
  /** When its last request ended (or when it was made, while its first one runs), in ms since the epoch. */
  readonly lastUsedMs: number;
  /** How many requests to it are being answered. */
  readonly inFlight: number;
}

/** A namespace held, and how it is being used. */
interface Held<T> {
  readonly namespace: T;
  /** When its last request ended (when it was made, until one has). */
  lastUsedMs: number;
  /** Requests being answered. */
  inFlight: number;
  /** Requests begun, ever: a retirement sees whether one came while it was under way. */
  uses: number;
  /** A request to it was accepted: it is a namespace of the server, not one made for a request alone. */
  kept: boolean;
  /** Its retirement (as idle) is under way. */
  retiring: boolean;
  /** Its drop on request, when under way. */
  dropping: Promise<void> | undefined;
}

/** The namespaces of one server, by name. */
export class Namespaces<T> {
  readonly #held = new Map<string, Held<T>>();
  readonly #options: NamespacesOptions<T>;
  readonly #now: () => number;
  readonly #sweeper: ReturnType<typeof setInterval>;

  /** @param options - the cap, the idle time, how a namespace is made, retired and discarded */
  constructor(options: NamespacesOptions<T>) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#sweeper = setInterval(() => void this.sweep(), sweepIntervalMs(options.idleMs));
    // Idle namespaces are no reason to keep a process alive.
    this.#sweeper.unref();
  }

  /**
   * Namespace `name` for a request, until the lease's `end`: made when it is not held (pending until
   * a request to it is accepted). Throws `503 namespace_limit_reached` (with `Retry-After`: when
   * the least recently used one would be dropped) for a new one when there are as many as allowed,
   * pending ones included. A namespace being dropped on request still serves it, and drops it with it.
   */
  begin(name: string): Lease<T> {
    let held = this.#held.get(name);
    if (!held) {
      if (this.#held.size >= this.#options.max) throw this.#full(this.#now());
      const namespace = this.#options.create(name);
      held = {
        namespace,
        lastUsedMs: this.#now(),
        inFlight: 0,
        uses: 0,
        kept: false,
        retiring: false,
        dropping: undefined,
      };
      this.#held.set(name, held);
    }
    held.inFlight += 1;
    held.uses += 1;
    const entry = held;
    let over = false;
    return {
      namespace: entry.namespace,
      get pending() {
        return !entry.kept;
      },
      end: (accepted) => {
        if (over) return;
        over = true;
        this.#end(name, entry, accepted);
      },
    };
  }

  /** A request to namespace `name` that was accepted and is over at once: its namespace, made when it is not held. */
  enter(name: string): T {
    const lease = this.begin(name);
    lease.end(true);
    return lease.namespace;
  }

  /** Namespace `name` when it is held and kept; not marked as used. */
  get(name: string): T | undefined {
    const held = this.#held.get(name);
    return held?.kept ? held.namespace : undefined;
  }

  /** Whether anything is held under `name`: a namespace, one made for a request in flight, or one being dropped. */
  has(name: string): boolean {
    return this.#held.has(name);
  }

  /** The names of the namespaces held and kept. */
  names(): string[] {
    return this.list().map((e) => e.name);
  }

  /** The namespaces held and kept (not one made for a request in flight, nor one being dropped), by name. */
  list(): NamespaceEntry<T>[] {
    const entries: NamespaceEntry<T>[] = [];
    for (const [name, h] of this.#held)
      if (h.kept && h.dropping === undefined)
        entries.push({ name, namespace: h.namespace, lastUsedMs: h.lastUsedMs, inFlight: h.inFlight });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * Drops namespace `name` now, idle or not, through `discard`; answers false when nothing is held
   * under that name. Until `discard` is done, a request to it is still served by it (and dropped
   * with it); a request to it still in flight after finishes there, and keeps nothing.
   */
  async drop(name: string): Promise<boolean> {
    const held = this.#held.get(name);
    if (!held) return false;
    held.dropping ??= (async () => {
      try {
        await this.#options.discard?.(name, held.namespace);
      } finally {
        if (this.#held.get(name) === held) this.#held.delete(name);
      }
    })();
    await held.dropping;
    return true;
  }

  /**
   * Drops every namespace idle for the idle time or longer (counted from the end of its last
   * request; one with a request in flight is not idle), each once it is retired.
   */
  async sweep(): Promise<void> {
    const now = this.#now();
    const idle = [...this.#held].filter(([, h]) => this.#droppable(h) && now - h.lastUsedMs >= this.#options.idleMs);
    await Promise.all(
      idle.map(async ([name, held]) => {
        held.retiring = true;
        const seen = held.uses;
        try {
          await this.#options.retire?.(name, held.namespace);
        } finally {
          held.retiring = false;
        }
        // A request while it was being retired keeps it; so does a drop on request, which removes it itself.
        if (held.uses !== seen || held.inFlight > 0 || held.dropping || this.#held.get(name) !== held) return;
        this.#held.delete(name);
        this.#options.closed?.(name, held.namespace);
      }),
    );
  }

  /** Stops looking for idle namespaces; answers every namespace held and kept (a server writes their state as it stops). */
  close(): T[] {
    clearInterval(this.#sweeper);
    return [...this.#held.values()].filter((h) => h.kept && h.dropping === undefined).map((h) => h.namespace);
  }

  /** A request to `held` is over: it is used now; a namespace no request accepted goes once none is in flight. */
  #end(name: string, held: Held<T>, accepted: boolean): void {
    held.inFlight -= 1;
    held.lastUsedMs = this.#now();
    if (accepted) held.kept = true;
    if (held.kept || held.inFlight > 0 || held.dropping || this.#held.get(name) !== held) return;
    this.#held.delete(name);
    this.#options.closed?.(name, held.namespace);
  }

  /** Whether `held` may be dropped as idle: kept, no request in flight, not already going. */
  #droppable(held: Held<T>): boolean {
    return held.kept && held.inFlight === 0 && !held.retiring && held.dropping === undefined;
  }

  /** The refusal of a new namespace when there are as many as allowed. */
  #full(now: number): HttpError {
    // The least recently used one that may go as idle; with none, a whole idle time from now.
    let oldest = now;
    for (const h of this.#held.values()) if (this.#droppable(h)) oldest = Math.min(oldest, h.lastUsedMs);
    const wait = oldest + this.#options.idleMs + sweepIntervalMs(this.#options.idleMs) - now;
    return new HttpError(
      503,
      'namespace_limit_reached',
      `This server holds ${this.#options.max} namespaces, as many as it may (--max-namespaces); one is dropped after ${Math.round(this.#options.idleMs / 1000)} s without a request (--namespace-idle)`,
      'namespace',
      { 'retry-after': String(Math.max(1, Math.ceil(wait / 1000))) },
    );
  }
}
