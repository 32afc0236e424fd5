import { type APIPromise, mapData } from '../api-promise.js';
import { eligibleForCampaign, subscribeToCampaign } from '../endpoints.js';
import type { RequestOptions } from '../request.js';
import type { RetentionCampaignItem, RetentionRequest, SubscribeToCampaignResponse } from '../schemas/me-retention.js';
import { APIResource } from './resource.js';

/** Options of a call made for the signed-in user: their access token is required. */
export type UserRequestOptions = Omit<RequestOptions, 'accessToken'> & {
  /** The user's access token, with `/external/me/w` and `/external/me/r` (e.g. from `authorization.exchangeTicket`). */
  accessToken: string;
};

/**
 * What endpoint 6 answers, as a union a site can `switch` on: eligible with the campaign to offer,
 * or not with a short reason `code` (`not_eligible`, `not_recurring`, `not_active`,
 * `not_platform_provisioned`, `already_on_campaign`, or one this version does not know) and a
 * readable `message`.
 */
export type CampaignEligibility =
  | { eligible: true; item: RetentionCampaignItem }
  | { eligible: false; code: string; message: string };

/**
 * Retention for the signed-in user (spec endpoints 6 and 7): a campaign offered instead of leaving.
 * Each call needs the user's token (`options.accessToken`) with both `/external/me/w` and `/external/me/r`.
 */
export class MeRetention extends APIResource {
  /**
   * Eligible for campaign (endpoint 6) for one of the user's subscriptions, named by
   * `user_product_id` or `order_id` (exactly one). Both answers are 200; the result says which.
   *
   * The parameters travel in a JSON body on a GET, which Fetch cannot send: the SDK sends it over
   * node:http(s) (Node, and MSW in process), with the same timeout, retries and errors as any call.
   * In a browser it rejects at once with `UnsupportedRequestError`, before anything is sent.
   * 404 `not_found` when the subscription or order is not the user's.
   */
  eligibleForCampaign(params: RetentionRequest, options: UserRequestOptions): APIPromise<CampaignEligibility> {
    return mapData(this._client.request(eligibleForCampaign, params, options), (data) =>
      'item' in data
        ? { eligible: true as const, item: data.item }
        : { eligible: false as const, code: data.code, message: data.message },
    );
  }

  /**
   * Subscribe to campaign (endpoint 7): the subscription moves to the campaign on offer (a cancelled
   * one is activated again) and the campaign is answered. When it is not eligible: `409` with the
   * reason's `code` (a `ConflictError`); a second call is `409 already_on_campaign`. A write: not retried.
   */
  subscribeToCampaign(params: RetentionRequest, options: UserRequestOptions): APIPromise<SubscribeToCampaignResponse> {
    return this._client.request(subscribeToCampaign, params, options);
  }
}
