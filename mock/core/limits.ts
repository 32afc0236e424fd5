/**
 * Limits on what one request may cost the platform: the body's size (read incrementally, refused
 * as soon as it is over) and the nesting depth of a JSON body (checked by one linear scan before
 * anything parses or walks it). Both adapters and the core apply them.
 */
import { logToAccounts, pathOf } from '../../src/endpoints.js';
import { ChangeLogEntry, MAX_CHANGE_LOGS_PER_REQUEST } from '../../src/schemas/account-change-log.js';
import { HttpError } from './errors.js';

/** The default body size limit: 1 MiB, above any request of the spec but endpoint 4's largest. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The largest `maxBodyBytes` a platform takes: 256 MiB. A body is decoded into one string, and V8
 * cannot make one over about 512 Mi characters (a 540 MB body ended the process); half of that
 * leaves room for the journal's and the parser's copies too.
 */
export const MAX_BODY_BYTES_LIMIT = 256 * 1024 * 1024;

/**
 * The most bytes of JSON one character of a string takes: the schemas count a character beyond the
 * BMP as one (zod counts code points), and its escape is a surrogate pair, `\ud83d\ude00`, 12 bytes;
 * any other character escaped is `\uXXXX`, 6, and written as UTF-8 at most 4.
 */
const MAX_JSON_BYTES_PER_CHARACTER = 12;
/** The most bytes of JSON one ASCII character (of a key, or an id's hexadecimal digit) takes: its `\uXXXX` escape. */
const MAX_JSON_BYTES_PER_ASCII = 6;
/** The characters of a record id: `ID_PATTERN` takes 24, whatever size the spec's table allows. */
const ID_CHARACTERS = 24;

/** The most bytes of a JSON string of `characters` characters of at most `perCharacter` bytes each, its quotes included. */
function jsonStringBytes(characters: number, perCharacter: number): number {
  return 2 + characters * perCharacter;
}

/**
 * The most bytes of one valid change-log entry as JSON without white space between tokens: every
 * key escaped, the account id's 24 hexadecimal digits escaped, and each other member at its
 * longest, every character beyond the BMP and escaped.
 */
function largestChangeLogEntryBytes(): number {
  const members = Object.entries(ChangeLogEntry.shape);
  let bytes = 2 + (members.length - 1); // the braces, a comma between members
  for (const [key, schema] of members) {
    const longest = schema.maxLength;
    if (longest === null) throw new Error(`change_logs[].${key} has no longest size`);
    const value =
      key === 'account_id'
        ? jsonStringBytes(ID_CHARACTERS, MAX_JSON_BYTES_PER_ASCII)
        : jsonStringBytes(longest, MAX_JSON_BYTES_PER_CHARACTER);
    bytes += jsonStringBytes(key.length, MAX_JSON_BYTES_PER_ASCII) + 1 + value; // the key, a colon, the value
  }
  return bytes;
}

/**
 * The body limit of endpoint 4 (`PUT .../account_change_log/log_to_accounts`), computed from its
 * schema: the spec allows 1,000 entries of a 1,024-character message and a 100-character category
 * and `requested_by` (1.23 MB in plain ASCII), and 1,001 such entries must reach the count rule
 * (400, not 413) however they are written without white space between tokens: every key and
 * character escaped, each character of the texts beyond the BMP (12 bytes). That is 15,125,182
 * bytes (14.4 MiB); the largest valid batch written so is 15.1 MB.
 */
const CHANGE_LOG_BODY_BYTES =
  2 + // the braces
  jsonStringBytes('change_logs'.length, MAX_JSON_BYTES_PER_ASCII) +
  1 + // the colon
  2 + // the brackets
  (MAX_CHANGE_LOGS_PER_REQUEST + 1) * largestChangeLogEntryBytes() +
  MAX_CHANGE_LOGS_PER_REQUEST; // a comma between entries

/** Routes whose largest valid request is over the default limit: method, path and their own minimum. */
const LARGER_BODIES: readonly { method: string; path: string; bytes: number }[] = [
  { method: logToAccounts.method, path: pathOf(logToAccounts, 'stage'), bytes: CHANGE_LOG_BODY_BYTES },
  { method: logToAccounts.method, path: pathOf(logToAccounts, 'production'), bytes: CHANGE_LOG_BODY_BYTES },
];

/**
 * The body limit of a request to `target` (a path, with or without its query): `maxBodyBytes`, or
 * more on a route whose largest valid request needs more ({@link CHANGE_LOG_BODY_BYTES}). The route
 * is matched by the path's end, so that it holds under a base path or a namespace (`/_ns/{name}`),
 * with or without a trailing slash, as the router finds it.
 */
export function bodyLimitFor(maxBodyBytes: number, method: string, target: string): number {
  const q = target.indexOf('?');
  const given = q < 0 ? target : target.slice(0, q);
  const path = given.length > 1 && given.endsWith('/') ? given.slice(0, -1) : given;
  const upper = method.toUpperCase();
  let limit = maxBodyBytes;
  for (const r of LARGER_BODIES) if (r.method === upper && path.endsWith(r.path)) limit = Math.max(limit, r.bytes);
  return limit;
}
/** How deep a JSON body may nest objects and arrays: far above any request of the spec (3 levels). */
export const MAX_JSON_DEPTH = 64;

/** 413 `payload_too_large`, field `body`. */
export function bodyTooLarge(limit: number): HttpError {
  return new HttpError(413, 'payload_too_large', `Body exceeds the limit of ${limit} bytes`, 'body');
}

/** The `Content-Length` a request declares: a number, undefined when absent, NaN when malformed. */
export function declaredLength(header: string | null | undefined): number | undefined {
  if (header === null || header === undefined) return undefined;
  const text = header.trim();
  // Digits only: no sign, no exponent, no list (a repeated header is a malformed request).
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return Number.NaN;
  }
  return text === '' ? Number.NaN : Number(text);
}

/**
 * Whether JSON text nests objects and arrays deeper than `max`: brackets counted outside string
 * literals, in one pass with no recursion. Text that is not JSON is left to the parser.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // Skip the string literal with the engine's own search: most of a body is strings. A quote
      // ends it unless an odd number of backslashes stands right before it.
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return false;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 92 /* \ */) slashes++;
        i = end;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
    }
  }
  return false;
}

/** 400 `invalid_parameter`, field `body`: the body nests deeper than {@link MAX_JSON_DEPTH}. */
export function tooDeep(): HttpError {
  return new HttpError(
    400,
    'invalid_parameter',
    `Body must not nest objects and arrays deeper than ${MAX_JSON_DEPTH} levels`,
    'body',
  );
}

/**
 * Reads a Fetch `Request`'s body as UTF-8 text, at most `limit` bytes: a declared
 * `Content-Length` over the limit is refused before reading, and the stream is read chunk by
 * chunk and cancelled as soon as it goes over. Throws {@link bodyTooLarge}. Null for no body.
 */
export async function readBodyText(request: Request, limit: number): Promise<string | null> {
  if (request.body === null) return null;
  const declared = declaredLength(request.headers.get('content-length'));
  if (declared !== undefined && declared > limit) {
    // Not awaited: a body stream that never ends may never settle its cancellation either.
    request.body.cancel().catch(() => undefined);
    throw bodyTooLarge(limit);
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => undefined);
      throw bodyTooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return new TextDecoder().decode(chunks[0]);
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(whole);
}
