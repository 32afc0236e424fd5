/**
 * Account passwords: the state document keeps only a salted scrypt hash (RFC 7914), written
 * `scrypt$<N>$<r>$<p>$<salt>$<hash>` (base64url). node:crypto computes it where it exists (Node);
 * in a browser (MSW's worker) the same function comes from `@noble/hashes`, with the same result.
 *
 * The cost is a test platform's (N = 2^10, r = 8, p = 1: about 2 ms in Node), so that creating
 * and resetting platforms stays fast; a production service would use N = 2^17 or more.
 */
import { scrypt as nobleScrypt } from '@noble/hashes/scrypt';

const N = 1024;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** The part of node:crypto used here. */
interface NodeCrypto {
  scryptSync(
    password: string,
    salt: Uint8Array,
    keylen: number,
    options: { N: number; r: number; p: number },
  ): Uint8Array;
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;

function derive(password: string, salt: Uint8Array, n: number, r: number, p: number): Uint8Array {
  if (nodeCrypto) return nodeCrypto.scryptSync(password, salt, KEY_BYTES, { N: n, r, p });
  return nobleScrypt(password, salt, { N: n, r, p, dkLen: KEY_BYTES });
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '');
}

function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** What a stored hash looks like. */
export const PASSWORD_HASH = /^scrypt\$\d{1,7}\$\d{1,3}\$\d{1,3}\$[A-Za-z0-9_-]{16,64}\$[A-Za-z0-9_-]{32,128}$/;

/** A new salted hash of `password`. */
export function hashPassword(password: string): string {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return `scrypt$${N}$${R}$${P}$${base64url(salt)}$${base64url(derive(password, salt, N, R, P))}`;
}

/** Whether `password` is the one `hash` was made from (compared in constant time). */
export function verifyPassword(password: string, hash: string): boolean {
  const [scheme, n, r, p, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = fromBase64url(key);
  const actual = derive(password, fromBase64url(salt), Number(n), Number(r), Number(p));
  if (nodeCrypto) return expected.length === actual.length && nodeCrypto.timingSafeEqual(expected, actual);
  let diff = expected.length ^ actual.length;
  for (let i = 0; i < expected.length; i++) diff |= (expected[i] ?? 0) ^ (actual[i] ?? 0);
  return diff === 0;
}

/** A hash that matches no password, for an unknown e-mail: checking it costs what a real check costs. */
export const NO_PASSWORD = hashPassword(base64url(crypto.getRandomValues(new Uint8Array(24))));
