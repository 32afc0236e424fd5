/**
 * What carries the pipeline's requests: the caller's `fetch` (the global one by default), and for
 * a GET whose parameters travel in a JSON body (endpoint 6), node:http(s). Fetch refuses a body on
 * GET (and a browser's XMLHttpRequest drops it); node:http sends it, and MSW intercepts it in
 * process. The pipeline builds such a request as a POST marked with {@link GET_WITH_BODY}, so its
 * timeout, abort, retries and hooks apply to it as to any other; the transport turns it back into
 * a GET on the wire. Only this module knows. Its answer is handed on as soon as its headers come,
 * its body a stream, which the attempt reads as it reads fetch's (within the timeout, up to its
 * limit); node:http follows no redirect, so the attempt sees and refuses one as it does fetch's.
 */

/** The marker header of a GET with a body on its way to the transport; it never reaches the wire. */
export const GET_WITH_BODY = 'x-platform-sdk-get-with-body';

/**
 * Whether a header can carry `value` as it is: tabs, spaces and visible characters of Latin-1
 * (RFC 9110's field value), without CR, LF, NUL or other controls. Fetch refuses most of the others
 * with an error that quotes the value, drops a line break at either end without a word, and
 * node:http refuses them all.
 */
export function isHeaderValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 32 && c !== 9) || c === 127 || c > 255) return false;
  }
  return true;
}

/** Why a value is refused by {@link isHeaderValue}, as a message may say it without quoting it. */
export const HEADER_VALUE_RULE = 'must not contain a line break, NUL or another character a header cannot carry';

/** The part of node:http(s) the transport uses. */
interface NodeHttp {
  request(
    url: URL,
    options: { method: string; headers: Record<string, string>; signal?: AbortSignal },
    onResponse: (res: NodeIncoming) => void,
  ): NodeOutgoing;
}
interface NodeIncoming {
  readonly statusCode?: number;
  readonly statusMessage?: string;
  readonly headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): this;
  on(event: 'end' | 'close', listener: () => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  pause(): this;
  resume(): this;
  destroy(): this;
}
interface NodeOutgoing {
  on(event: 'error', listener: (error: Error) => void): this;
  end(body: Uint8Array): void;
}

interface NodeProcess {
  versions?: { node?: string };
  getBuiltinModule?: (id: string) => unknown;
}

function nodeProcess(): NodeProcess | undefined {
  const runtime = (globalThis as { process?: NodeProcess }).process;
  return runtime?.versions?.node ? runtime : undefined;
}

/** Whether this runtime can send a GET with a body (Node, with node:http); not a browser. */
export function canSendGetWithBody(): boolean {
  return nodeProcess() !== undefined;
}

async function nodeModule(name: 'node:http' | 'node:https'): Promise<NodeHttp> {
  const builtin = nodeProcess()?.getBuiltinModule?.(name);
  if (builtin) return builtin as NodeHttp;
  // A specifier bundlers do not follow: browser bundles never see node:http.
  const specifier = name;
  return (await import(/* @vite-ignore */ specifier)) as NodeHttp;
}

const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * The body of a node:http answer as a Fetch body stream: chunks as they come (the answer paused
 * while the reader is behind), ended with the answer, failed with it (a reset, an abort), and
 * the answer destroyed when the reader cancels (a timeout, a body over the limit).
 */
function bodyStream(res: NodeIncoming, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (error: unknown) => {
        if (!open) return;
        open = false;
        controller.error(error);
      };
      res.on('data', (chunk) => {
        if (!open) return;
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) res.pause();
      });
      res.on('end', () => {
        if (!open) return;
        open = false;
        controller.close();
      });
      res.on('error', fail);
      // Closed before its end without an error (the socket destroyed): the body is cut short.
      res.on('close', () => fail(signal?.aborted ? signal.reason : new Error('the answer was cut short')));
      signal?.addEventListener('abort', () => fail(signal.reason), { once: true });
    },
    pull() {
      res.resume();
    },
    cancel() {
      open = false;
      res.destroy();
    },
  });
}

/** The headers of a node:http answer as Fetch `Headers`. */
function headersOf(res: NodeIncoming): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/**
 * Sends a marked request as a GET with its body over node:http(s), and answers a Fetch `Response`
 * once its headers come, its body streamed ({@link bodyStream}). `signal` is the attempt's own, as
 * the caller gave it, never `request.signal`: a `Request`'s signal follows the one it was made with
 * only while the `Request` lives, and once its body is read nothing holds it, so after a garbage
 * collection a timeout or an abort would no longer reach node:http and the socket would stay open.
 */
async function sendGetWithBody(request: Request, signal: AbortSignal | undefined): Promise<Response> {
  const url = new URL(request.url);
  const body = new Uint8Array(await request.arrayBuffer());
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (name !== GET_WITH_BODY) headers[name] = value;
  });
  headers['content-length'] = String(body.byteLength);
  const http = await nodeModule(url.protocol === 'https:' ? 'node:https' : 'node:http');
  return new Promise<Response>((resolve, reject) => {
    const req = http.request(url, { method: 'GET', headers, ...(signal ? { signal } : {}) }, (res) => {
      const status = res.statusCode ?? 0;
      try {
        const nullBody = NULL_BODY.has(status);
        if (nullBody) res.resume();
        resolve(
          new Response(nullBody ? null : bodyStream(res, signal), {
            status,
            statusText: res.statusMessage ?? '',
            headers: headersOf(res),
          }),
        );
      } catch (error) {
        // A status Fetch cannot hold (below 200 or above 599) or a header it refuses.
        res.destroy();
        reject(error);
      }
    });
    // A failure before the answer (refused, reset, aborted) rejects like fetch's TypeError would.
    req.on('error', (error) => reject(signal?.aborted ? signal.reason : error));
    req.end(body);
  });
}

/** Whether `headers` (of a `RequestInit`) carry the marker of a GET with a body. */
function marked(headers: HeadersInit | undefined): boolean {
  if (headers === undefined) return false;
  if (headers instanceof Headers) return headers.has(GET_WITH_BODY);
  if (Array.isArray(headers)) return headers.some(([name]) => name?.toLowerCase() === GET_WITH_BODY);
  return Object.hasOwn(headers, GET_WITH_BODY);
}

/**
 * The `fetch` the pipeline sends with (itself for a first attempt, through ky for retries):
 * `fetchImpl`, and node:http(s) for a marked GET with a body, given as a `Request` (ky's) and the
 * attempt's init (its signal, `redirect`), or as a URL and its init (the pipeline's first attempt).
 * `fetchImpl` is given a retry as one `Request`, made from both. It never sees a GET with a body (it
 * could not send one): such a request goes over node:http(s)'s global agent, whatever `fetchImpl`
 * would have done about proxies or TLS, with the init's signal itself ({@link sendGetWithBody}).
 */
export function transport(fetchImpl: typeof fetch | undefined): typeof fetch {
  const plain = fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  return (input, init) => {
    if (input instanceof Request) {
      if (input.headers.has(GET_WITH_BODY)) return sendGetWithBody(input, init?.signal ?? input.signal);
      return plain(init ? new Request(input, init) : input);
    }
    if (!marked(init?.headers)) return plain(input, init);
    // The signal stays out of the Request, which is only read (its URL, headers and body).
    return sendGetWithBody(new Request(input, { ...init, signal: null }), init?.signal ?? undefined);
  };
}
