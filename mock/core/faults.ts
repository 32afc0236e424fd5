import { fieldOf } from '../../src/schemas/common.js';
import { HttpError, invalidParameter } from './errors.js';
import { otherSlash } from './path-text.js';

/**
 * A fault to inject into the next matching requests: a delay, an error status, or a dropped
 * connection. Faults are tried before routing, so any path can fail, known or not.
 */
export interface Fault {
  /** Only requests with this method (any method when absent). */
  method?: string;
  /**
   * The request path to match, with or without its trailing slash (as routes answer both alike); a
   * trailing `*` matches every path with that prefix (`/titles/*` takes `/titles` too).
   */
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
  /**
   * Adds a fault; throws a `HttpError` (400 `invalid_parameter`) when it is malformed, has a member
   * over its size, or when 100 are pending already (nothing is added then).
   */
  add(fault: Fault): void;
  /** Removes every fault. */
  clear(): void;
  /** The pending faults, `times` being what is left of each. */
  list(): Fault[];
}

/** The longest latency a fault may add, in ms: the longest wait a timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_LATENCY_MS = 2 ** 31 - 1;

/**
 * The most faults pending at once on one platform (each namespace of the server is a platform of
 * its own). A suite adds a few at a time; without a cap, a shared server's memory was anyone's, and
 * every request looks through them all. Room is made by `DELETE /__admin/faults` (`clear()`), a
 * reset, or by faults running out.
 */
const MAX_PENDING_FAULTS = 100;
/** The longest fault `path`, in characters: a URL's customary limit, far beyond any request path of the spec. */
const MAX_PATH = 2048;
/** The longest `method`, in characters: the longest registered HTTP method, `UPDATEREDIRECTREF`, has 17. */
const MAX_METHOD = 20;
/** The longest `code`, in characters: the spec's error codes are words of a few tens. */
const MAX_CODE = 100;
/** The most `headers` of one fault. */
const MAX_HEADERS = 10;
/** The longest header name, in characters. */
const MAX_HEADER_NAME = 100;
/** The longest header value, in characters: 100 faults of 10 such headers hold about 1 MB of text. */
const MAX_HEADER_VALUE = 1024;

/** Whether `value` is a string of `min` to `max` characters. */
const textOf = (value: unknown, min: number, max: number): value is string =>
  typeof value === 'string' && value.length >= min && value.length <= max;

/**
 * Checks a fault the way the admin API does; `field` names use the admin API's spelling. Every
 * string is bounded, so that {@link MAX_PENDING_FAULTS} faults stay small whatever they hold.
 */
function check(f: Fault): void {
  if (typeof f.path !== 'string' || !f.path.startsWith('/'))
    throw new HttpError(400, 'invalid_parameter', 'Parameter must be a path starting with /', 'path');
  if (f.path.length > MAX_PATH)
    throw invalidParameter('path', `Parameter must be a path of at most ${MAX_PATH} characters`);
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
  if (f.method !== undefined && !textOf(f.method, 1, MAX_METHOD))
    throw invalidParameter('method', `Parameter must be a method of 1 to ${MAX_METHOD} characters`);
  if (f.code !== undefined && !textOf(f.code, 1, MAX_CODE))
    throw invalidParameter('code', `Parameter must be an error code of 1 to ${MAX_CODE} characters`);
  if (f.headers !== undefined) checkHeaders(f.headers);
  // Without one, the fault would be listed and taken by the requests it matches, and change nothing.
  if (f.status === undefined && f.latencyMs === undefined && f.drop !== true)
    throw invalidParameter(
      'status',
      'A fault needs status, latency_ms or drop: true, to say what happens to the requests it matches',
    );
}

/** A header name: an HTTP token (RFC 9110, 5.6.2). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~\w-]+$/;
/**
 * A header value as both adapters send it alike: tabs, spaces and visible ASCII (RFC 9110, 5.5,
 * without its obs-text: node:http writes other characters as UTF-8, which a client reads as Latin-1).
 */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/**
 * Headers the platform sets itself: the framing of the answer (a fault's `content-length` left
 * bytes of the body on the connection, read as the next answer; `transfer-encoding` made the answer
 * unreadable), the body's encoding (never any: a fault's `content-encoding` made clients decode the
 * plain JSON, which curl and fetch failed on), the connection's own, the JSON error body's type, and
 * the correlation id (the body's `api_correlation_id` and the journal's entry carry the same).
 */
const PLATFORM_HEADERS = new Set([
  'x-correlation-id',
  'content-length',
  'transfer-encoding',
  'content-encoding',
  'content-type',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
]);

/**
 * A fault's headers: at most {@link MAX_HEADERS}, each name an HTTP token and each value one an
 * answer can carry (a header neither node:http nor Fetch can send failed the faulted request with
 * a 500, or made MSW's handler throw), each of a bounded size, none the platform sets itself
 * ({@link PLATFORM_HEADERS}), none twice in any letter case.
 */
function checkHeaders(headers: Record<string, string>): void {
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers))
    throw invalidParameter('headers', 'Parameter must be an object of header names and values');
  const entries = Object.entries(headers);
  if (entries.length > MAX_HEADERS)
    throw invalidParameter('headers', `Parameter must have at most ${MAX_HEADERS} headers`);
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    if (!textOf(name, 1, MAX_HEADER_NAME))
      throw invalidParameter('headers', `Parameter must have header names of 1 to ${MAX_HEADER_NAME} characters`);
    if (!HEADER_NAME.test(name))
      throw invalidParameter(
        'headers',
        `Parameter must have header names of letters, digits and !#$%&'*+-.^_\`|~ only: ${JSON.stringify(name)} is not one`,
      );
    const lower = name.toLowerCase();
    if (PLATFORM_HEADERS.has(lower))
      throw invalidParameter(
        fieldOf(['headers', name]),
        `Parameter must not be given: the platform sets ${lower} itself`,
      );
    if (seen.has(lower)) throw invalidParameter(fieldOf(['headers', name]), 'Parameter must not be repeated');
    seen.add(lower);
    if (!textOf(value, 0, MAX_HEADER_VALUE))
      throw invalidParameter(
        fieldOf(['headers', name]),
        `Parameter must be a header value of at most ${MAX_HEADER_VALUE} characters`,
      );
    if (!HEADER_VALUE.test(value))
      throw invalidParameter(
        fieldOf(['headers', name]),
        'Parameter must be a header value of tabs, spaces and visible ASCII characters only',
      );
  }
}

/** The pending faults. */
export class Faults implements FaultList {
  #items: { fault: Fault; remaining: number }[] = [];

  add(fault: Fault): void {
    check(fault);
    // Checked before anything changes: a refused fault leaves the list as it was.
    if (this.#items.length >= MAX_PENDING_FAULTS)
      throw new HttpError(
        400,
        'invalid_parameter',
        `A platform holds at most ${MAX_PENDING_FAULTS} pending faults: make room with DELETE /__admin/faults (platform.faults.clear()), or let some run out first`,
      );
    // Names in lower case, as the answer's own are, and as the fault list shows them.
    const headers =
      fault.headers && Object.fromEntries(Object.entries(fault.headers).map(([n, v]) => [n.toLowerCase(), v]));
    const copy: Fault = { ...fault, headers };
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
    const other = otherSlash(path);
    const i = this.#items.findIndex(({ fault: f }) => {
      if (f.method !== undefined && f.method !== method) return false;
      if (!f.path.endsWith('*')) return f.path === path || f.path === other;
      const prefix = f.path.slice(0, -1);
      // `/titles/*` takes `/titles`, which routes as `/titles/` does.
      return path.startsWith(prefix) || (prefix.length > 1 && prefix.endsWith('/') && `${path}/` === prefix);
    });
    if (i < 0) return undefined;
    const item = this.#items[i]!;
    item.remaining -= 1;
    if (item.remaining <= 0) this.#items.splice(i, 1);
    return item.fault;
  }
}
