/**
 * The standalone server's namespaces: `/_ns/{name}/...` is served by a platform of its own, made on
 * first use, so that parallel test workers sharing one server each reset and write without seeing
 * the others. A namespace is dropped after an idle time on the real clock (each namespace's platform
 * has a clock of its own, which a test may stop or move), and there are at most so many at once.
 */
import { HttpError } from '../core/errors.js';

/** Where a namespace's paths start: `/_ns/{name}/...`. */
export const NAMESPACE_PREFIX = '/_ns/';

/** The most characters of a namespace's name. */
export const NAMESPACE_NAME_MAX = 32;

/**
 * A namespace's name, but for its length: lower-case letters, digits and hyphens, a letter or digit
 * at each end. (The length is counted apart: a bounded repetition costs the ReDoS check seconds.)
 */
const NAMESPACE_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** Whether `name` is a namespace's name: 1 to 32 lower-case letters, digits and hyphens, a letter or digit at each end. */
export function isNamespaceName(name: string): boolean {
  return name.length <= NAMESPACE_NAME_MAX && NAMESPACE_NAME.test(name);
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
  if (!isNamespaceName(name))
    throw new HttpError(
      400,
      'invalid_parameter',
      'A namespace is named by 1 to 32 lower-case letters, digits and hyphens, not a hyphen at either end: /_ns/{name}/...',
      'namespace',
    );
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
  /** How long a namespace may go without a request before it is dropped, in ms. */
  readonly idleMs: number;
  /** Makes namespace `name` on its first request; an `HttpError` it throws is the request's answer. */
  readonly create: (name: string) => T;
  /** Runs before an idle namespace is dropped (its state written); a request meanwhile keeps it. */
  readonly retire?: (name: string, namespace: T) => Promise<void> | void;
  /** The real clock, in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

/** A namespace held, and when it last served a request. */
interface Held<T> {
  readonly namespace: T;
  lastUsedMs: number;
  /** Its retirement is under way. */
  retiring: boolean;
}

/** The namespaces of one server, by name. */
export class Namespaces<T> {
  readonly #held = new Map<string, Held<T>>();
  readonly #options: NamespacesOptions<T>;
  readonly #now: () => number;
  readonly #sweeper: ReturnType<typeof setInterval>;

  /** @param options - the cap, the idle time, how a namespace is made and retired */
  constructor(options: NamespacesOptions<T>) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#sweeper = setInterval(() => void this.sweep(), sweepIntervalMs(options.idleMs));
    // Idle namespaces are no reason to keep a process alive.
    this.#sweeper.unref();
  }

  /**
   * Namespace `name` for a request: made on first use, and marked as used now. Throws `503
   * namespace_limit_reached` (with `Retry-After`: when the least recently used one would be
   * dropped) for a new one when there are as many as allowed.
   */
  enter(name: string): T {
    const now = this.#now();
    const held = this.#held.get(name);
    if (held) {
      held.lastUsedMs = now;
      return held.namespace;
    }
    if (this.#held.size >= this.#options.max) throw this.#full(now);
    const namespace = this.#options.create(name);
    this.#held.set(name, { namespace, lastUsedMs: now, retiring: false });
    return namespace;
  }

  /** Namespace `name` when it is held; not marked as used. */
  get(name: string): T | undefined {
    return this.#held.get(name)?.namespace;
  }

  /** The names of the namespaces held. */
  names(): string[] {
    return [...this.#held.keys()];
  }

  /** Drops every namespace idle for the idle time or longer, each once it is retired. */
  async sweep(): Promise<void> {
    const now = this.#now();
    const idle = [...this.#held].filter(([, h]) => !h.retiring && now - h.lastUsedMs >= this.#options.idleMs);
    await Promise.all(
      idle.map(async ([name, held]) => {
        held.retiring = true;
        const seen = held.lastUsedMs;
        try {
          await this.#options.retire?.(name, held.namespace);
        } finally {
          held.retiring = false;
        }
        // A request while it was being retired keeps it.
        if (held.lastUsedMs === seen && this.#held.get(name) === held) this.#held.delete(name);
      }),
    );
  }

  /** Stops looking for idle namespaces; answers every namespace held (a server writes their state as it stops). */
  close(): T[] {
    clearInterval(this.#sweeper);
    return [...this.#held.values()].map((h) => h.namespace);
  }

  /** The refusal of a new namespace when there are as many as allowed. */
  #full(now: number): HttpError {
    let oldest = now;
    for (const h of this.#held.values()) oldest = Math.min(oldest, h.lastUsedMs);
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
