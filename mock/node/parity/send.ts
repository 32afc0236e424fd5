/**
 * How a parity run sends a request to the platform under test: over node:http(s) (a GET may carry a
 * JSON body, endpoint 6), never following a redirect (a secret in a body goes to no other host), with
 * one time bound for the whole answer, body included, and a bound on its size.
 */
import http from 'node:http';
import https from 'node:https';

/** The connections of one run, kept alive between its requests and closed at its end. */
export class Connections {
  readonly http = new http.Agent({ keepAlive: true });
  readonly https = new https.Agent({ keepAlive: true });

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

/** The largest answer read: a catalogue page of a large organisation fits many times over. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** What came back: the status, a header reader, the body's text. */
export interface Received {
  readonly status: number;
  header(name: string): string | undefined;
  readonly text: string;
}

/** A host that cannot be reached, or that does not answer in time: the run cannot go on (exit code 2). */
export class UnreachableError extends Error {
  /**
   * A host that cannot be reached.
   * @param origin - the host, as `scheme://host:port`
   * @param reason - what went wrong, in a few words
   */
  constructor(
    readonly origin: string,
    reason: string,
  ) {
    super(`cannot reach ${origin}: ${reason}`);
    this.name = 'UnreachableError';
  }
}

/** Sends one request; rejects with {@link UnreachableError} when the host does not answer whole within `timeoutMs`. */
export function send(
  url: URL,
  method: string,
  headers: Readonly<Record<string, string>>,
  body: string | undefined,
  timeoutMs: number,
  connections?: Connections,
): Promise<Received> {
  const secure = url.protocol === 'https:';
  // Read from the module at each call: a test suite's interceptor (MSW) replaces it after import.
  const request = secure ? https.request : http.request;
  const agent = connections ? (secure ? connections.https : connections.http) : false;
  return new Promise((resolve, reject) => {
    const fail = (reason: string) => reject(new UnreachableError(url.origin, reason));
    const req = request(url, {
      agent,
      method,
      headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      fail(`no whole answer within ${timeoutMs} ms`);
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(error.code ?? error.message);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          clearTimeout(timer);
          req.destroy();
          fail(`an answer over ${MAX_ANSWER_BYTES} bytes`);
        } else chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          header: (name) => {
            const value = res.headers[name.toLowerCase()];
            return Array.isArray(value) ? value.join(', ') : value;
          },
          text,
        });
      });
      res.on('error', (error) => {
        clearTimeout(timer);
        fail(error.message);
      });
    });
    req.end(body);
  });
}
