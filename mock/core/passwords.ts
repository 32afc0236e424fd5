/**
 * Account passwords: the state document keeps only a salted scrypt hash (RFC 7914), written
 * `scrypt$<N>$<r>$<p>$<salt>$<hash>` (base64url). node:crypto computes it where it exists (Node);
 * in a browser (MSW's worker) the same function comes from `@noble/hashes`, with the same result.
 *
 * The cost is a test platform's (N = 2^10, r = 8, p = 1: about 2 ms in Node), so that creating
 * and resetting platforms stays fast; a production service would use N = 2^17 or more. A check of
 * a login runs off the event loop (`crypto.scrypt`, libuv's thread pool; in a browser, noble's
 * `scryptAsync`, which yields as it goes), and a stored hash may cost at most {@link SCRYPT_LIMITS}:
 * no login, however costly its hash, keeps the platform from answering other requests.
 */
import { scrypt as nobleScrypt, scryptAsync as nobleScryptAsync } from '@noble/hashes/scrypt';

const N = 1024;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** scrypt's options as node:crypto takes them. */
interface NodeScryptOptions {
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

/** The part of node:crypto used here. */
interface NodeCrypto {
  scryptSync(password: string, salt: Uint8Array, keylen: number, options: NodeScryptOptions): Uint8Array;
  scrypt(
    password: string,
    salt: Uint8Array,
    keylen: number,
    options: NodeScryptOptions,
    callback: (error: Error | null, key: Uint8Array) => void,
  ): void;
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;

/**
 * The scrypt parameters a stored hash may name: any the platform writes, and every cost whose check
 * stays under about 100 ms on a small shared machine (measured: N·r·p = 2^17 with 16 MiB takes 30 to
 * 55 ms of CPU time on Node 20; twice that work took 65 to 300 ms), so that no stored hash can make
 * a login a way to tie up the platform. Costlier hashes are refused when the state is loaded.
 */
const SCRYPT_LIMITS = {
  /** N, the CPU/memory cost: a power of two from 2^4 to 2^16 (and below 2^(16·r), as RFC 7914 requires). */
  minLog2N: 4,
  maxLog2N: 16,
  /** r, the block size: 1 to 16. */
  maxR: 16,
  /** p, the parallelism: 1 to 16. */
  maxP: 16,
  /**
   * N·r·p, the work of one check: at most 2^17 (131072), N = 2^14 with r = 8 and p = 1. The memory
   * one check needs, 128·N·r bytes, is then at most 16 MiB.
   */
  maxWork: 2 ** 17,
} as const;

interface ScryptParameters {
  n: number;
  r: number;
  p: number;
}

/** Why N, r and p cannot be used (a sentence naming the rule), or undefined when they can. */
function parameterProblem({ n, r, p }: ScryptParameters): string | undefined {
  const L = SCRYPT_LIMITS;
  if (!Number.isSafeInteger(n) || n < 2 ** L.minLog2N || n > 2 ** L.maxLog2N || (n & (n - 1)) !== 0)
    return `N must be a power of two from 2^${L.minLog2N} (${2 ** L.minLog2N}) to 2^${L.maxLog2N} (${2 ** L.maxLog2N})`;
  if (!Number.isSafeInteger(r) || r < 1 || r > L.maxR) return `r must be an integer from 1 to ${L.maxR}`;
  if (!Number.isSafeInteger(p) || p < 1 || p > L.maxP) return `p must be an integer from 1 to ${L.maxP}`;
  if (n >= 2 ** (16 * r)) return 'N must be less than 2^(16·r) (RFC 7914)';
  // The memory one check needs, 128·N·r bytes, is at most 128 times this: 16 MiB.
  if (n * r * p > L.maxWork)
    return `N·r·p (the work of one check) must be at most ${L.maxWork} (2^17), so that one check takes under about 100 ms`;
  return undefined;
}

/** N, r and p of a stored hash, as numbers (not checked). */
function parametersOf(hash: string): ScryptParameters {
  const [, n, r, p] = hash.split('$');
  return { n: Number(n), r: Number(r), p: Number(p) };
}

/** The memory node:crypto must be allowed for these parameters (it refuses over 32 MiB by default). */
function maxmemOf({ n, r, p }: ScryptParameters): number {
  return 128 * n * r + 128 * r * p + 1024 * 1024;
}

/** The key, computed on this thread: only for hashes the platform writes itself, at its own small cost. */
function derive(password: string, salt: Uint8Array, parameters: ScryptParameters): Uint8Array {
  const { n, r, p } = parameters;
  if (nodeCrypto) return nodeCrypto.scryptSync(password, salt, KEY_BYTES, { N: n, r, p, maxmem: maxmemOf(parameters) });
  return nobleScrypt(password, salt, { N: n, r, p, dkLen: KEY_BYTES, maxmem: maxmemOf(parameters) });
}

/** The key, computed off the event loop: a stored hash's cost never holds up other requests. */
function deriveAsync(password: string, salt: Uint8Array, parameters: ScryptParameters): Promise<Uint8Array> {
  const { n, r, p } = parameters;
  const maxmem = maxmemOf(parameters);
  const node = nodeCrypto;
  if (!node) return nobleScryptAsync(password, salt, { N: n, r, p, dkLen: KEY_BYTES, maxmem });
  return new Promise((resolve, reject) => {
    node.scrypt(password, salt, KEY_BYTES, { N: n, r, p, maxmem }, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
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

/** What a stored hash looks like (its parameters are checked by {@link passwordHashProblem}). */
export const PASSWORD_HASH = /^scrypt\$\d{1,7}\$\d{1,3}\$\d{1,3}\$[A-Za-z0-9_-]{16,64}\$[A-Za-z0-9_-]{32,128}$/;

/**
 * Why a stored hash cannot be used, as a message for the state document's error; undefined when it
 * can. A hash of the right shape may still name scrypt parameters no check can run with (N = 1) or
 * that would stall the platform on every login: it is refused when the document is loaded, not at
 * the first login.
 */
export function passwordHashProblem(hash: string): string | undefined {
  if (!PASSWORD_HASH.test(hash)) return 'Expected scrypt$N$r$p$salt$hash';
  const problem = parameterProblem(parametersOf(hash));
  return problem && `Unusable scrypt parameters: ${problem}`;
}

/** The parameters every new hash is made with. */
const NEW_HASH: ScryptParameters = { n: N, r: R, p: P };

/** A hash's text: `scrypt$N$r$p$salt$hash`, the salt and the key in base64url. */
function hashText(salt: Uint8Array, key: Uint8Array): string {
  return `scrypt$${N}$${R}$${P}$${base64url(salt)}$${base64url(key)}`;
}

/** A new salted hash of `password`. */
export function hashPassword(password: string): string {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return hashText(salt, derive(password, salt, NEW_HASH));
}

/** {@link hashPassword}, computed off the event loop: for a request, which must not hold the others up. */
export async function hashPasswordAsync(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return hashText(salt, await deriveAsync(password, salt, NEW_HASH));
}

/**
 * Whether `password` is the one `hash` was made from (compared in constant time), computed off the
 * event loop. A hash whose parameters {@link passwordHashProblem} refuses matches no password (a
 * loaded document holds none).
 */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const [scheme, , , , salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const parameters = parametersOf(hash);
  if (parameterProblem(parameters) !== undefined) return false;
  const expected = fromBase64url(key);
  const actual = await deriveAsync(password, fromBase64url(salt), parameters);
  if (nodeCrypto) return expected.length === actual.length && nodeCrypto.timingSafeEqual(expected, actual);
  let diff = expected.length ^ actual.length;
  for (let i = 0; i < expected.length; i++) diff |= (expected[i] ?? 0) ^ (actual[i] ?? 0);
  return diff === 0;
}

/** A hash that matches no password, for an unknown e-mail: checking it costs what a real check costs. */
export const NO_PASSWORD = hashPassword(base64url(crypto.getRandomValues(new Uint8Array(24))));
