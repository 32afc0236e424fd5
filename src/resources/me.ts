import type { APIPromise } from '../api-promise.js';
import { getSignedInUser } from '../endpoints.js';
import type { SignedInUser } from '../schemas/sign-on.js';
import type { TokenRequestOptions } from './authorization.js';
import { APIResource } from './resource.js';

/** Parameters of {@link Me.get}. */
export interface GetSignedInUserParams {
  /** The user's access token (e.g. from `authorization.exchangeTicket`). */
  accessToken: string;
}

/** The signed-in user (spec endpoint 24). */
export class Me extends APIResource {
  /**
   * Get signed-in user (endpoint 24) with the user's access token, sent instead of the client's
   * auth and never refreshed. 401 for an invalid or expired token; 403 for a token tied to no user.
   */
  get(params: GetSignedInUserParams, options?: TokenRequestOptions): APIPromise<SignedInUser> {
    return this._client.request(getSignedInUser, undefined, { ...options, accessToken: params.accessToken });
  }
}
