/**
 * What carries the pipeline's requests: the caller's `fetch` (the global one by default), and for
 * a GET whose parameters travel in a JSON body (endpoint 6), node:http(s). Fetch refuses a body on
 * GET (and a browser's XMLHttpRequest drops it); node:http sends it, and MSW intercepts it in
 * process. The pipeline builds such a request as a POST marked with {@link GET_WITH_BODY}, so its
 * timeout, abort, retries and hooks apply to it as to any other; the transport turns it back into
 * a GET on the wire. Only this module knows.
 */

/** The marker header of a GET with a body on its way to the transport; it never reaches the wire. */
export const GET_WITH_BODY = 'x-platform-sdk-get-with-body';

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
  on(event: 'end', listener: () => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
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

/** Sends a marked request as a GET with its body over node:http(s), and answers a Fetch `Response`. */
async function sendGetWithBody(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const body = new Uint8Array(await request.arrayBuffer());
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (name !== GET_WITH_BODY) headers[name] = value;
  });
  headers['content-length'] = String(body.byteLength);
  const http = await nodeModule(url.protocol === 'https:' ? 'node:https' : 'node:http');
  return new Promise<Response>((resolve, reject) => {
    const req = http.request(url, { method: 'GET', headers, signal: request.signal }, (res) => {
      const chunks: Uint8Array[] = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) answerHeaders.append(name, v);
        }
        let length = 0;
        for (const c of chunks) length += c.byteLength;
        const all = new Uint8Array(length);
        let at = 0;
        for (const c of chunks) {
          all.set(c, at);
          at += c.byteLength;
        }
        resolve(
          new Response(NULL_BODY.has(status) ? null : all, {
            status,
            statusText: res.statusMessage ?? '',
            headers: answerHeaders,
          }),
        );
      });
    });
    // A failure before the answer (refused, reset, aborted) rejects like fetch's TypeError would.
    req.on('error', (error) => reject(request.signal.aborted ? request.signal.reason : error));
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
 * `fetchImpl`, and node:http(s) for a marked GET with a body, given as a `Request` (ky) or as a URL
 * and its init (the pipeline's first attempt). `fetchImpl` never sees a GET with a body (it could
 * not send one): such a request goes over node:http(s)'s global agent, whatever `fetchImpl` would
 * have done about proxies or TLS.
 */
export function transport(fetchImpl: typeof fetch | undefined): typeof fetch {
  const plain = fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  return (input, init) => {
    if (input instanceof Request) return input.headers.has(GET_WITH_BODY) ? sendGetWithBody(input) : plain(input, init);
    return marked(init?.headers) ? sendGetWithBody(new Request(input, init)) : plain(input, init);
  };
}
