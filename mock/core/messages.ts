/**
 * The core's own request and answer: plain data, cheaper than Fetch's `Request` and `Response`.
 * `Platform.handle` converts from and to Fetch; the node:http adapter uses them directly.
 */
import type { HttpError } from './errors.js';
import type { Refusal } from './refusal.js';

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
  /**
   * Why the adapter refused the request before the core read it (a body over the limit, a `Host`
   * it does not serve): the core answers this error in its usual body, journaled.
   */
  readonly refusal: HttpError | undefined;
}

/** An answer of the core. */
export interface CoreResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body text; null for no body. */
  readonly body: string | null;
  /** Drop the connection instead of answering (a fault). */
  readonly drop: boolean;
  /** Why the request was refused, for the journal and the request log (never sent). */
  readonly refusal?: Refusal;
}

/** One request, start to end: the core of a platform. Never rejects. */
export type RequestHandler = (request: CoreRequest) => Promise<CoreResponse>;
