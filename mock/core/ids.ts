/**
 * Identifiers and credentials: random ones from the Web Crypto API (Node and browsers alike), and
 * how ids compare (the spec's id pattern ignores case).
 */

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * Random bytes for record ids, drawn from the Web Crypto API 4 KB at a time: one call per 341 ids
 * instead of one per id (a batch of 1000 change logs makes 1000 ids). No byte is used twice.
 */
const pool = new Uint8Array(4096);
let used = pool.length;

/** A new record id: 24 lower-case hexadecimal characters (96 random bits). */
export function newId(): string {
  if (used + 12 > pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  let out = '';
  for (let i = used; i < used + 12; i++) out += HEX[pool[i]!];
  used += 12;
  return out;
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

/** Whether two ids name the same record (letter case aside). */
export function sameId(a: string, b: string): boolean {
  return a === b || idKey(a) === idKey(b);
}

/** A new opaque credential (token, ticket): `bytes` random bytes, base64url, no padding. */
export function newSecret(bytes = 32): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  let bin = '';
  for (const b of raw) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '');
}
