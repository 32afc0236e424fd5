/**
 * A request's body, as the standalone server reads it: up to the limit, never throwing outside its
 * promise; and what is done with the rest of a body that was not read whole.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../core/errors.js';
import { declaredLength } from '../core/limits.js';

/** How long a refused upload may go on being read (and discarded) before its connection is cut. */
const LINGER_MS = 2_000;

/** A body that was not read whole: over the limit. */
export const TOO_LARGE = Symbol('too large');
/** A body read whole that cannot be decoded as text (longer than a string can be). */
export const UNREADABLE = Symbol('unreadable');

/** The refusal of a body read whole that cannot be decoded: `400 malformed_request`, as the Fetch adapter's of a body it cannot read. */
export function unreadableBody(): HttpError {
  return new HttpError(400, 'malformed_request', 'The request body could not be read', 'body');
}

/**
 * The body of a request that has one ({@link hasBody}), read chunk by chunk up to `limit` bytes.
 * A declared length over the limit is refused before reading; a body that goes over while reading
 * stops being kept at once. A body that cannot be decoded is {@link UNREADABLE}: nothing here
 * throws outside the promise (an exception in a listener would end the process).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string | typeof TOO_LARGE | typeof UNREADABLE> {
  const declared = declaredLength(req.headers['content-length']);
  if (declared !== undefined && declared > limit) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        chunks.length = 0;
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      try {
        resolve(Buffer.concat(chunks, size).toString('utf8'));
      } catch {
        resolve(UNREADABLE);
      } finally {
        chunks.length = 0;
      }
    });
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client went away'));
    });
  });
}

/** Whether a request has a body to read (HTTP/1.1 framing: a non-zero Content-Length, or Transfer-Encoding). */
export function hasBody(req: IncomingMessage): boolean {
  const declared = declaredLength(req.headers['content-length']);
  return !((declared === undefined || declared === 0) && req.headers['transfer-encoding'] === undefined);
}

/**
 * After answering a request whose body was not read whole: go on reading and discarding what the
 * client still sends (so that it reads the answer rather than a reset connection), then close, at
 * the latest after {@link LINGER_MS}.
 */
export function lingerAndClose(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  res.once('finish', () => {
    const socket = req.socket;
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}
