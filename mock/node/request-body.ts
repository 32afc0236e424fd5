/**
 * A request's body, as the standalone server reads it: up to the limit, within what all the bodies
 * being read may hold together, never throwing outside its promise; and what is done with the rest
 * of a body that was not read whole.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../core/errors.js';
import { declaredLength } from '../core/limits.js';

/** How long a refused upload may go on being read (and discarded) before its connection is cut. */
const LINGER_MS = 2_000;

/** A body that was not read whole: over the limit. */
export const TOO_LARGE = Symbol('too large');
/** A body that was not read whole: it would take the bodies held together over their budget ({@link HeldBodies}). */
export const OVER_BUDGET = Symbol('over budget');
/** A body read whole that cannot be decoded as text (longer than a string can be). */
export const UNREADABLE = Symbol('unreadable');

/** The refusal of a body read whole that cannot be decoded: `400 malformed_request`, as the Fetch adapter's of a body it cannot read. */
export function unreadableBody(): HttpError {
  return new HttpError(400, 'malformed_request', 'The request body could not be read', 'body');
}

/** The refusal of a body that would take the bodies held together over their budget: `503 busy`, field `body`, `Retry-After: 1`. */
export function bodiesOverBudget(budget: number): HttpError {
  return new HttpError(
    503,
    'busy',
    `The request bodies the server holds at once, this one with them, would pass ${budget} bytes (--max-held-body-bytes): try again`,
    'body',
    { 'retry-after': '1' },
  );
}

/**
 * The size up to which a body is always read, whatever the others hold: 64 KiB, above any request
 * of the spec but endpoint 4's larger batches and endpoint 1's longest price lists (five periods of
 * 100 detail lines named in 100 characters take 70 KB). With the default 256 connections, such
 * bodies hold at most 16 MiB together.
 */
const ALWAYS_READ_BYTES = 64 * 1024;

/**
 * The bytes of request bodies a server holds at once, across its connections, from the first
 * byte read to the end of the answer: each body's limit holds one request, this holds their sum
 * (40 connections each sending endpoint 4 its 14.4 MiB took 0.66 GB without it). A body is
 * refused ({@link OVER_BUDGET}) when it would take the sum over `budget`, unless it is one of
 * {@link ALWAYS_READ_BYTES} at most, or no other body is held (so one body of any size up to its
 * limit is always read): what they hold together stays under `budget` plus one body's limit plus
 * the small ones'.
 */
export class HeldBodies {
  /** The bytes held, by every body being read or answered. */
  held = 0;

  /** @param budget - The bytes the bodies may hold together. */
  constructor(readonly budget: number) {}

  /** Whether a body that holds `own` bytes may hold `size` in all. */
  admits(own: number, size: number): boolean {
    return size <= ALWAYS_READ_BYTES || this.held === own || this.held - own + size <= this.budget;
  }
}

/**
 * The body of a request that has one ({@link hasBody}), read chunk by chunk up to `limit` bytes,
 * its bytes held in `bodies` until `res` closes. A declared length over the limit is refused
 * before reading; so is one the budget does not admit ({@link HeldBodies}), which a body sent
 * without a length meets as it is read. A body refused while reading stops being kept at once. A
 * body that cannot be decoded is {@link UNREADABLE}: nothing here throws outside the promise (an
 * exception in a listener would end the process).
 */
export function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  bodies: HeldBodies,
): Promise<string | typeof TOO_LARGE | typeof OVER_BUDGET | typeof UNREADABLE> {
  const declared = declaredLength(req.headers['content-length']);
  if (declared !== undefined && declared > limit) return Promise.resolve(TOO_LARGE);
  if (declared !== undefined && !bodies.admits(0, declared)) return Promise.resolve(OVER_BUDGET);
  // What this body holds: its declared length at once, else each chunk as it comes.
  let held = 0;
  const hold = (size: number) => {
    bodies.held += size - held;
    held = size;
  };
  const release = () => hold(0);
  res.once('close', release);
  if (declared !== undefined) hold(declared);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const refuse = (why: typeof TOO_LARGE | typeof OVER_BUDGET) => {
      refused = true;
      req.off('data', onData);
      chunks.length = 0;
      release();
      resolve(why);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return refuse(TOO_LARGE);
      if (size > held) {
        if (!bodies.admits(held, size)) return refuse(OVER_BUDGET);
        hold(size);
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      // A refused body's rest is read and dropped (`lingerAndClose`): nothing to decode.
      if (refused) return;
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
