/** Random identifiers and credentials, from the Web Crypto API (Node and browsers alike). */

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A new record id: 24 lower-case hexadecimal characters (96 random bits). */
export function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  let out = '';
  for (const b of bytes) out += HEX[b];
  return out;
}

/** A new opaque credential (token, ticket): `bytes` random bytes, base64url, no padding. */
export function newSecret(bytes = 32): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  let bin = '';
  for (const b of raw) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '');
}
