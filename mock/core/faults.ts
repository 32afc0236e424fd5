import { HttpError } from './errors.js';

/**
 * A fault to inject into the next matching requests: a delay, an error status, or a dropped
 * connection. Faults are tried before routing, so any path can fail, known or not.
 */
export interface Fault {
  /** Only requests with this method (any method when absent). */
  method?: string;
  /** The request path to match exactly; a trailing `*` matches every path with that prefix. */
  path: string;
  /** How many matching requests the fault applies to (default 1). */
  times?: number;
  /** Answer this status (200..599) with the common error body instead of the real answer. */
  status?: number;
  /** The error body's `code` (default `internal_server_error` for 5xx, else `injected_fault`). */
  code?: string;
  /** Headers added to the faulted answer, e.g. `{ 'retry-after': '2' }`. */
  headers?: Record<string, string>;
  /** Wait this long before answering, in ms (at most 2^31 - 1); alone, the request then goes on as usual. */
  latencyMs?: number;
  /** Drop the connection: `Response.error()`, which each adapter turns into a transport failure. */
  drop?: boolean;
}

/** The faults as the platform exposes them. */
export interface FaultList {
  /** Adds a fault; throws a `HttpError` (400 `invalid_parameter`) when it is malformed. */
  add(fault: Fault): void;
  /** Removes every fault. */
  clear(): void;
  /** The pending faults, `times` being what is left of each. */
  list(): Fault[];
}

/** The longest latency a fault may add, in ms: the longest wait a timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_LATENCY_MS = 2 ** 31 - 1;

/** Checks a fault the way the admin API does; `field` names use the admin API's spelling. */
function check(f: Fault): void {
  if (typeof f.path !== 'string' || !f.path.startsWith('/'))
    throw new HttpError(400, 'invalid_parameter', 'Parameter must be a path starting with /', 'path');
  // A request's path never holds them: such a fault would be listed and never happen.
  if (/[?#]/.test(f.path))
    throw new HttpError(
      400,
      'invalid_parameter',
      'Parameter must be a path without a query or a fragment: a fault matches the path alone',
      'path',
    );
  if (f.times !== undefined && !(Number.isInteger(f.times) && f.times > 0))
    throw new HttpError(400, 'invalid_parameter', 'Parameter must be a positive integer', 'times');
  if (f.status !== undefined && !(Number.isInteger(f.status) && f.status >= 200 && f.status <= 599))
    throw new HttpError(400, 'invalid_parameter', 'Parameter must be an HTTP status from 200 to 599', 'status');
  // Node's timers take at most 2^31 - 1 ms: a longer wait would fire after 1 ms.
  if (f.latencyMs !== undefined && !(Number.isFinite(f.latencyMs) && f.latencyMs >= 0 && f.latencyMs <= MAX_LATENCY_MS))
    throw new HttpError(
      400,
      'invalid_parameter',
      `Parameter must be a number of milliseconds from 0 to ${MAX_LATENCY_MS}`,
      'latency_ms',
    );
}

/** The pending faults. */
export class Faults implements FaultList {
  #items: { fault: Fault; remaining: number }[] = [];

  add(fault: Fault): void {
    check(fault);
    const copy: Fault = { ...fault, headers: fault.headers ? { ...fault.headers } : undefined };
    if (copy.method !== undefined) copy.method = copy.method.toUpperCase();
    if (copy.headers === undefined) delete copy.headers;
    this.#items.push({ fault: copy, remaining: fault.times ?? 1 });
  }

  clear(): void {
    this.#items = [];
  }

  list(): Fault[] {
    return this.#items.map(({ fault, remaining }) => ({ ...fault, times: remaining }));
  }

  /** The first fault matching the request, used once; undefined when none does. */
  take(method: string, path: string): Fault | undefined {
    if (this.#items.length === 0) return undefined;
    const i = this.#items.findIndex(({ fault: f }) => {
      if (f.method !== undefined && f.method !== method) return false;
      return f.path.endsWith('*') ? path.startsWith(f.path.slice(0, -1)) : f.path === path;
    });
    if (i < 0) return undefined;
    const item = this.#items[i]!;
    item.remaining -= 1;
    if (item.remaining <= 0) this.#items.splice(i, 1);
    return item.fault;
  }
}
