/**
 * Identifiers and credentials: random ones from the Web Crypto API (Node and browsers alike), and
 * how ids compare (the spec's id pattern ignores case).
 */
import { redactShapes } from '../../src/secrets.js';

/** The character codes of the hexadecimal digits, `0` to `f`. */
const HEX_DIGITS = Array.from({ length: 16 }, (_, i) => i.toString(16).charCodeAt(0));

/**
 * Random bytes for record ids, drawn from the Web Crypto API 4 KB at a time: one call per 341 ids
 * instead of one per id (a batch of 1000 change logs makes 1000 ids). No byte is used twice.
 */
const pool = new Uint8Array(4096);
let used = pool.length;
/** The character codes of the id being made (one array, reused). */
const digits: number[] = new Array(24).fill(0);

/**
 * A new record id: 24 lower-case hexadecimal characters (96 random bits). Made from character codes
 * in one step: an id built by `+=` is a rope of 12 pieces, and copying it flat when an index
 * first lowers or hashes it cost more than making it: about 0.6 us an id and its key, against 0.2.
 */
export function newId(): string {
  if (used + 12 > pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  for (let i = 0; i < 12; i++) {
    const byte = pool[used + i]!;
    digits[2 * i] = HEX_DIGITS[byte >> 4]!;
    digits[2 * i + 1] = HEX_DIGITS[byte & 15]!;
  }
  used += 12;
  return String.fromCharCode(...digits);
}

/** Compares two secrets in time independent of where they differ. */
export function sameSecret(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i % Math.max(b.length, 1));
  return diff === 0;
}

/** An id as a key of a map or set: the spec's id pattern ignores case, so `0A1...` is `0a1...`. */
export function idKey(id: string): string {
  return id.toLowerCase();
}

/** Whether two ids name the same record (letter case aside): the SDK's rule, the spec's. */
export { sameId } from '../../src/ids.js';

/**
 * A new opaque credential (token, ticket, session id): `bytes` random bytes, base64url, no padding,
 * drawn again until it has the shape every redaction recognises as a credential (upper case, lower
 * case, and a digit, `-` or `_`: `redactShapes`), so that free text quoting one never keeps it.
 * About one in 770 draws of 24 bytes has letters only; another is drawn then.
 */
export function newSecret(bytes = 32): string {
  for (;;) {
    const raw = crypto.getRandomValues(new Uint8Array(bytes));
    let bin = '';
    for (const b of raw) bin += String.fromCharCode(b);
    const secret = btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '');
    // Shorter than 32 characters, no text is a credential's shape: there is nothing to draw again for.
    if (secret.length < 32 || redactShapes(secret, '') !== secret) return secret;
  }
}
