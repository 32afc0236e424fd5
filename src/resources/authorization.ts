import * as z from 'zod';
import type { APIPromise } from '../api-promise.js';
import { accessToken, generateTicket } from '../endpoints.js';
import type { ClientCredentials } from '../options.js';
import type { Requester, RequestOptions } from '../request.js';
import {
  type AccessTokenResponse,
  type GenerateTicketRequest,
  type GenerateTicketResponse,
  RefreshTokenGrantRequest,
  TicketGrantRequest,
} from '../schemas/authorization.js';
import { missingOption } from '../sign-on/internal.js';
import { APIResource, checkParams } from './resource.js';

/**
 * Options of a call that takes no per-call `accessToken`: the token endpoint (23) and SSO (21)
 * send no bearer token, and `me.get` takes the user's token as its parameter.
 */
export type TokenRequestOptions = Omit<RequestOptions, 'accessToken'>;

/** Parameters of {@link Authorization.exchangeTicket}. */
export interface ExchangeTicketParams {
  /** The ticket received (e.g. from the shop's return), used once and at once. */
  ticket: string;
  /** Space-separated scopes for the user's token, e.g. `/external/me/r /external/me/w`. Default: the platform's. */
  scope?: string;
}

/** Parameters of {@link Authorization.refreshToken}. */
export interface RefreshTokenParams {
  /** The `refresh_token` of an earlier access token response. */
  refreshToken: string;
}

/**
 * The grants' parameters, by the names the methods take: another key is refused (`unknown_parameter`),
 * as the endpoint refuses one, and each value by its grant's rule for it (`TicketGrantRequest`,
 * `RefreshTokenGrantRequest`), named as the caller spelled it (`refreshToken`, not `refresh_token`).
 */
const EXCHANGE_TICKET_PARAMS = z.strictObject({
  ticket: TicketGrantRequest.shape.ticket,
  scope: TicketGrantRequest.shape.scope,
});
const REFRESH_TOKEN_PARAMS = z.strictObject({ refreshToken: RefreshTokenGrantRequest.shape.refresh_token });

/**
 * Tickets and user tokens on the authorization API (spec endpoints 22 and 23). The grants send the
 * client's `credentials` (the site's own API client) in the body; tickets, tokens and the secret are
 * never logged.
 */
export class Authorization extends APIResource {
  readonly #credentials: ClientCredentials | undefined;

  /** @internal Made by the client. */
  constructor(client: Requester, credentials: ClientCredentials | undefined) {
    super(client);
    this.#credentials = credentials;
  }

  /**
   * Generate ticket (endpoint 22), just before use: tickets are short-lived and single-use.
   *
   * - Form (a), server to server: `{ accountId, clientId }` with the client's own token (scope
   *   `/api/authorization/ticket`): a ticket for that account, for the client `clientId`.
   * - Form (b), for the signed-in user: `{ client_id }` (the shop's client id) with the USER's
   *   token, passed as `options.accessToken`; the user comes from the token.
   *
   * 400 for an invalid account id or client id; 401 for an invalid access token. A write: not retried.
   */
  generateTicket(body: GenerateTicketRequest, options?: RequestOptions): APIPromise<GenerateTicketResponse> {
    return this._client.request(generateTicket, body, options);
  }

  /**
   * Exchange ticket for access token (endpoint 23, grant `ticket`) with the client's `credentials`:
   * the user's access token, tied to the ticket's account. 401 (`AuthenticationError`) for an invalid,
   * expired or already used ticket or wrong credentials. Not retried by default: a ticket is single-use.
   * Rejects with a `SignOnConfigurationError` (option `credentials`) before sending when the client
   * has no credentials, and with a `RequestValidationError` when `params` is no object or has a key
   * besides `ticket` and `scope` (`unknown_parameter`).
   */
  exchangeTicket(params: ExchangeTicketParams, options?: TokenRequestOptions): APIPromise<AccessTokenResponse> {
    return this._client.request(
      accessToken,
      this.#withCredentials('exchangeTicket', EXCHANGE_TICKET_PARAMS, params, ({ ticket, scope }) => ({
        grant_type: 'ticket',
        ticket,
        scope,
      })),
      options,
    );
  }

  /**
   * Refresh a user's access token (endpoint 23, grant `refresh_token`) with the client's
   * `credentials`. 401 for an unknown, already used or revoked refresh token. Not retried by default.
   * A key of `params` besides `refreshToken` is refused before sending (`unknown_parameter`).
   */
  refreshToken(params: RefreshTokenParams, options?: TokenRequestOptions): APIPromise<AccessTokenResponse> {
    return this._client.request(
      accessToken,
      this.#withCredentials('refreshToken', REFRESH_TOKEN_PARAMS, params, ({ refreshToken }) => ({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      })),
      options,
    );
  }

  /**
   * The grant's body, made from `params` once `keys` takes them (an object of its keys only, each
   * value by its rule; a `RequestValidationError` naming the parameter otherwise), with `client_id`
   * and `client_secret`; rejects naming the option when they are missing.
   */
  async #withCredentials<P, const B extends object>(
    method: string,
    keys: z.ZodType,
    params: P,
    body: (params: P) => B,
  ): Promise<B & { client_id: string; client_secret: string }> {
    checkParams(keys, params);
    const credentials = this.#credentials;
    if (!credentials) throw missingOption(method, 'credentials');
    return { ...body(params), client_id: credentials.clientId, client_secret: credentials.clientSecret };
  }
}
