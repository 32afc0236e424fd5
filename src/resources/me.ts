import * as z from 'zod';
import type { APIPromise } from '../api-promise.js';
import { cancelProduct, getMeDocumented, getMyActiveProducts, getSignedInUser } from '../endpoints.js';
import type { IdResponse } from '../schemas/common.js';
import type {
  ActiveProductsResponse,
  CancelProductRequest,
  DocumentedMeV3Response,
  MeActiveProductsQuery,
} from '../schemas/me.js';
import type { SignedInUser } from '../schemas/sign-on.js';
import type { TokenRequestOptions } from './authorization.js';
import type { UserRequestOptions } from './me-retention.js';
import { APIResource, checkParams } from './resource.js';

/** Parameters of {@link Me.get}. */
export interface GetSignedInUserParams {
  /** The user's access token (e.g. from `authorization.exchangeTicket`). */
  accessToken: string;
}

/**
 * The keys {@link Me.get}'s parameters may have: another is refused (`unknown_parameter`), as every
 * method refuses one; the token itself is the pipeline's to check (`accessToken`).
 */
const GET_SIGNED_IN_USER_KEYS = z.strictObject({ accessToken: z.unknown() });

/** The signed-in user (spec endpoint 24), and what the platform's public documentation adds to the me API. */
export class Me extends APIResource {
  /**
   * Get signed-in user (endpoint 24) with the user's access token, sent instead of the client's
   * auth and never refreshed. 401 for an invalid or expired token; 403 for a token tied to no user.
   * A key of `params` besides `accessToken` is refused before sending (`unknown_parameter`).
   */
  get(params: GetSignedInUserParams, options?: TokenRequestOptions): APIPromise<SignedInUser> {
    // The endpoint takes no parameters: checked, they are `undefined` (a promise, so a refusal rejects the call).
    const checked = (async () => {
      checkParams(GET_SIGNED_IN_USER_KEYS, params ?? {});
      return undefined;
    })();
    return this._client.request(getSignedInUser, checked, { ...options, accessToken: params?.accessToken });
  }

  /**
   * The signed-in user as the platform's public documentation shows it (beyond the spec): `GET
   * /external/api/v3/me`, `{ item }` in snake_case with every user-product of the account and its
   * `state`. `get()` keeps the spec's endpoint 24; this is the richer read a site needs to list the
   * user's subscriptions. Needs the user's token with `/external/me/w`.
   */
  getDocumented(options: UserRequestOptions): APIPromise<DocumentedMeV3Response> {
    return this._client.request(getMeDocumented, undefined, options);
  }

  /**
   * The product codes the user has access to now (beyond the spec): subscriptions started and not
   * over (an `activated` recurring one, a `limited` or `cancelled` one before its term ends),
   * packages expanded to their products. `include_articles` is not supported (`400
   * invalid_parameter`). Needs the user's token with `/external/me/w`.
   */
  activeProducts(options: UserRequestOptions, params: MeActiveProductsQuery = {}): APIPromise<ActiveProductsResponse> {
    return this._client.request(getMyActiveProducts, params, options);
  }

  /**
   * Cancel product (beyond the spec: the platform's public documentation): the user cancels one of
   * their subscriptions, optionally giving a cancellation reason visible to customers (endpoint 14).
   * It stays `cancelled` until the end of its term, and endpoint 16 can reactivate it. 404 `not_found`
   * (`id`, `cancellation_reason_id`); 409 for a subscription that cannot be cancelled (`invalid_state`,
   * `not_cancellable`, `not_recurring`, `user_product_not_platform_provisioned`). Needs the user's
   * token with `/external/me/w`. A write: not retried.
   */
  cancelProduct(params: CancelProductRequest, options: UserRequestOptions): APIPromise<IdResponse> {
    return this._client.request(cancelProduct, params, options);
  }
}
