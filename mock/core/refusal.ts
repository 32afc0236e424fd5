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
