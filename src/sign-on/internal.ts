// Helpers shared by the sign-on modules. Not exported from the package. No zod here: a site that
// imports only the shop URL and the replay guard must not pay for it (see ./parse.ts).
import { SignOnConfigurationError } from './errors.js';

const encoder = new TextEncoder();

/** RFC 7518 section 3.2: an HS256 key must be at least 256 bits. */
const MIN_HS256_SECRET_BYTES = 32;

/**
 * The client secret as key bytes, refused when shorter than 32 bytes. The message never names the
 * secret. Bytes are told by `ArrayBuffer.isView`, not `instanceof Uint8Array`: a test environment
 * such as jsdom gives the page's `TextEncoder`, whose arrays are another realm's `Uint8Array`. jose
 * takes only this realm's, so such bytes are copied into one.
 */
export function hs256Key(secret: string | Uint8Array): Uint8Array {
  const key: unknown = typeof secret === 'string' ? encoder.encode(secret) : secret;
  if (!ArrayBuffer.isView(key) || key.byteLength < MIN_HS256_SECRET_BYTES) {
    throw new SignOnConfigurationError(
      'clientSecret',
      `clientSecret must be at least ${MIN_HS256_SECRET_BYTES} bytes: RFC 7518 section 3.2 requires HS256 keys of at least 256 bits`,
    );
  }
  return key instanceof Uint8Array ? key : new Uint8Array(key.buffer, key.byteOffset, key.byteLength).slice();
}

/** A required non-empty string option, or a configuration error naming the option. */
export function requireOption(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new SignOnConfigurationError(name, `${name} must be a non-empty string`);
  }
  return value;
}

/** SHA-256 of a text, lowercase hex, through WebCrypto (runs in browsers and Node). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** What each client option needed by a sign-on method is, for {@link missingOption}'s message. */
const CLIENT_OPTIONS: Record<string, string> = {
  credentials: 'the site\'s API client id and secret, or "auth" with client credentials',
  sso: 'the SSO audience constant and the organisation id',
  'hosts.sso': "the SSO service's URL, {sso_url}",
  'hosts.shop': "the shop's URL, {shop_url}",
};

/** A method of the client needs an option it was not given: the error names both, never a value. */
export function missingOption(method: string, option: string): SignOnConfigurationError {
  const what = CLIENT_OPTIONS[option];
  return new SignOnConfigurationError(
    option,
    `${method} needs the client option "${option}"${what ? ` (${what})` : ''}`,
  );
}
