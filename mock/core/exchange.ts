/**
 * The core's own request and answer: plain data, cheaper than Fetch's `Request` and `Response`.
 * `Platform.handle` converts from and to Fetch; the node:http adapter uses them directly.
 */

/**
 * Sets an own property, `__proto__` included (an assignment would set the prototype instead). For
 * records keyed by what a client sent (headers, query and form pairs): plain objects, not
 * prototype-less ones, which V8 keeps in dictionary mode at a cost to every reader.
 */
export function setOwn(target: Record<string, string>, key: string, value: string): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A request as the core reads it. */
export interface CoreRequest {
  /** Upper case. */
  readonly method: string;
  readonly url: URL;
  /** Lower-case names, each an own key (see {@link setOwn}); not changed once the request is made. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body text; null when there is none. */
  readonly body: string | null;
  readonly ip: string | undefined;
}

/** An answer of the core. */
export interface CoreResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body text; null for no body. */
  readonly body: string | null;
  /** Drop the connection instead of answering (a fault). */
  readonly drop: boolean;
}

/** The core behind a platform created by `createPlatform`. */
export type Core = (request: CoreRequest) => Promise<CoreResponse>;

const cores = new WeakMap<object, Core>();

/** Records the core of a platform. */
export function registerCore(platform: object, core: Core): void {
  cores.set(platform, core);
}

/** The core of a platform made by `createPlatform`, for adapters that skip Fetch objects; undefined otherwise. */
export function coreOf(platform: object): Core | undefined {
  return cores.get(platform);
}
