/**
 * Why the platform refused a request, kept with the journal's entry, the error and the answer; for
 * the journal and the request log only: the wire answer stays the platform's. Never a secret (no
 * token, secret, password or ticket), only names and values a caller may see:
 * `{ check: 'aud', detail: 'aud is "x", expected "sso.platform.test"' }`.
 */
export interface Refusal {
  /**
   * Which check failed: an SSO request token's `signature`, `alg`, `typ`, `aud`, `iss`, `exp`,
   * `nbf`, `iat`, `claim` (missing or malformed), `client`, `organisation`; a grant's `client` or
   * `client_secret`; a bearer token's `token`, `scope` or `user`; else the error `code` answered.
   */
  readonly check: string;
  /** What it found, in words. */
  readonly detail: string;
}

/**
 * A client id no client of the platform has, as the journal and the request log tell it: its
 * length (or its type), never its text. A site or back end with its variables swapped sends its
 * secret in its place, and that must not be quoted where ids are.
 */
export function unknownClient(name: string, value: unknown): string {
  const what = typeof value === 'string' ? `${value.length} characters` : `a ${value === null ? 'null' : typeof value}`;
  return `${name} is no client of the platform (${what}, not shown)`;
}
