/**
 * Requests that `fetch` cannot make, for the node:http adapter's tests: any `Host` header, a
 * declared length the body does not have, a body sent in pieces, a socket that says nothing.
 */
import * as http from 'node:http';
import * as net from 'node:net';

/** An answer, read whole. */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed body, when it is JSON. */
  json: unknown;
}

/** What to send. */
export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Written before the request is ended; strings are UTF-8. */
  body?: string | Buffer;
  /** Leave the request open after the body (a client that says it will send more). */
  keepOpen?: boolean;
}

function read(res: http.IncomingMessage): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('error', reject);
    res.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = /json/.test(res.headers['content-type'] ?? '') ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
    });
  });
}

/**
 * Sends one request on a fresh connection and answers the response, even one that comes before
 * the request is fully sent (an early refusal); a write error after the answer is ignored.
 */
export function rawRequest(origin: string, path: string, o: RawOptions = {}): Promise<RawAnswer> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      url,
      { method: o.method ?? 'GET', headers: o.headers, agent: false, setHost: o.headers?.host === undefined },
      (res) => {
        answered = true;
        read(res).then(resolve, reject);
      },
    );
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (o.body !== undefined) req.write(o.body);
    if (!o.keepOpen) req.end();
  });
}

/**
 * Streams `total` bytes as a chunked body in `chunk`-sized pieces, as fast as the server reads
 * them, and answers the response (which may come before the body is all sent).
 */
export function streamedRequest(
  origin: string,
  path: string,
  total: number,
  headers: Record<string, string> = {},
  chunk = 64 * 1024,
): Promise<RawAnswer> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
      answered = true;
      read(res).then(resolve, reject);
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const piece = Buffer.alloc(chunk, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < total && !answered && !req.destroyed) {
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

/** Opens a TCP connection to the server and answers the socket once connected. */
export function openSocket(origin: string): Promise<net.Socket> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with what the server sent when it closes the connection (it must close it: the test timeout bounds the wait). */
export function closedByServer(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (c: Buffer) => {
      received += c.toString('latin1');
    });
    socket.on('error', () => undefined);
    if (socket.destroyed || socket.readableEnded) resolve(received);
    else socket.once('close', () => resolve(received));
  });
}
