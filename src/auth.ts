/**
 * Where the bearer token of each API request comes from: a fixed token, a provider the caller
 * owns, or the platform's server-to-server grant (client credentials), cached and refreshed here.
 */
import { ClientConfigurationError } from './errors.js';
import type { AuthOptions, ClientCredentialsAuth } from './options.js';
import type { AccessTokenResponse, ClientCredentialsRequest } from './schemas/authorization.js';
import { isHeaderValue } from './transport.js';

/** The source of bearer tokens used by the pipeline. */
export interface TokenSource {
  /** Whether asking again after a 401 can give another token. */
  readonly refreshable: boolean;
  /** The token for the next request. */
  token(): Promise<string>;
  /** That token when it is at hand without waiting (a fixed token, a cached one still fresh); else undefined. */
  current(): string | undefined;
  /** Forget `token` (answered 401) so that the next {@link TokenSource.token} gets a new one. */
  invalidate(token: string): void;
}

/** Refresh this long before expiry: 60 s, or 10% of the lifetime for short-lived tokens. */
export function refreshMargin(lifetimeMs: number): number {
  return Math.min(60_000, lifetimeMs * 0.1);
}

/** A fixed token: never refreshable, since asking again gives the same refused token. */
class FixedToken implements TokenSource {
  readonly refreshable = false;
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  token(): Promise<string> {
    return Promise.resolve(this.#value);
  }
  current(): string {
    return this.#value;
  }
  invalidate(): void {}
}

/** The caller's provider, asked on every attempt: after a 401 it is asked again for a fresh token. */
class ProvidedToken implements TokenSource {
  readonly refreshable = true;
  readonly #provide: () => string | Promise<string>;
  constructor(provide: () => string | Promise<string>) {
    this.#provide = provide;
  }
  /**
   * The provider's token, held to the fixed token's rule: a non-empty string a header can carry.
   * Anything else (`undefined` from a missing `return`, a number, a line break) fails the call before
   * it is sent, naming the option and never quoting the value: sent, it would be a request without
   * a token, a `Bearer undefined`, or fetch's error quoting it, taken for a failure of the network.
   */
  async token(): Promise<string> {
    const token: unknown = await this.#provide();
    if (typeof token !== 'string' || token.trim() === '' || !isHeaderValue(token))
      throw new ClientConfigurationError(
        'auth.accessToken',
        'the provider must return a non-empty string a header can carry (no line break, NUL or other control character)',
      );
    return token;
  }
  current(): undefined {
    return undefined;
  }
  invalidate(): void {}
}

/** Client credentials: one cached token, one refresh in flight at a time. */
class ClientCredentialsToken implements TokenSource {
  readonly refreshable = true;
  readonly #auth: ClientCredentialsAuth;
  readonly #fetchToken: (body: ClientCredentialsRequest) => Promise<AccessTokenResponse>;
  #cached: { token: string; refreshAt: number } | undefined;
  #pending: Promise<string> | undefined;

  constructor(
    auth: ClientCredentialsAuth,
    fetchToken: (body: ClientCredentialsRequest) => Promise<AccessTokenResponse>,
  ) {
    this.#auth = auth;
    this.#fetchToken = fetchToken;
  }

  current(): string | undefined {
    const cached = this.#cached;
    return cached && Date.now() < cached.refreshAt ? cached.token : undefined;
  }

  token(): Promise<string> {
    const cached = this.current();
    if (cached !== undefined) return Promise.resolve(cached);
    this.#pending ??= this.#refresh().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  invalidate(token: string): void {
    // Only the token that was refused: concurrent 401s with the same old token refresh once.
    if (this.#cached?.token === token) this.#cached = undefined;
  }

  async #refresh(): Promise<string> {
    const requestedAt = Date.now();
    const scope = this.#auth.scopes.join(' ');
    const answer = await this.#fetchToken({
      grant_type: 'none',
      client_id: this.#auth.clientId,
      client_secret: this.#auth.clientSecret,
      ...(scope ? { scope } : {}),
    });
    const lifetime = answer.expires_in * 1000;
    this.#cached = { token: answer.access_token, refreshAt: requestedAt + lifetime - refreshMargin(lifetime) };
    return answer.access_token;
  }
}

/** The token source for the `auth` option; `fetchToken` posts the grant through the pipeline. */
export function tokenSource(
  auth: AuthOptions,
  fetchToken: (body: ClientCredentialsRequest) => Promise<AccessTokenResponse>,
): TokenSource {
  if ('accessToken' in auth) {
    return typeof auth.accessToken === 'function'
      ? new ProvidedToken(auth.accessToken)
      : new FixedToken(auth.accessToken);
  }
  return new ClientCredentialsToken(auth, fetchToken);
}
