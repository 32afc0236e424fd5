/**
 * Another realm's globals, as a test environment gives them (jest's jsdom environment runs a suite
 * in a vm context): values whose classes are not this realm's, though they look the same.
 */
import { runInNewContext } from 'node:vm';

/**
 * A `TextEncoder` class whose `encode` answers another realm's `Uint8Array` (as jsdom's window
 * gives), with the bytes this realm's encoder gives. Stub it as the global `TextEncoder`.
 */
export function foreignTextEncoder(): typeof TextEncoder {
  const native = new TextEncoder();
  const encode = (text: string) => native.encode(text);
  return runInNewContext('(class { encode(text) { return new Uint8Array(encode(text)); } })', {
    encode,
  }) as typeof TextEncoder;
}
