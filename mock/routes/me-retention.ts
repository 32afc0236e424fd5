/**
 * Endpoints 6 (eligible for campaign, a GET whose parameters travel in a JSON body) and 7 (subscribe
 * to campaign), for the signed-in user (a user token with `/external/me/w` and `/external/me/r`).
 */
import { eligibleForCampaign, subscribeToCampaign } from '../../src/endpoints.js';
import { HttpError } from '../core/errors.js';
import { campaignItem, judgeRetention, retentionTarget } from '../core/retention-offers.js';
import { apiRoute, type Route } from '../core/route.js';

/** Endpoint 6: the campaign on offer (`{ item }`), or why not (`{ code, message }`), both 200. */
const eligible = apiRoute(eligibleForCampaign, ({ input, state, auth, clock }) => {
  const u = retentionTarget(state, auth.account!, input);
  const eligibility = judgeRetention(state, u, clock.nowMs());
  if ('code' in eligibility) return { body: { code: eligibility.code, message: eligibility.message } };
  return { body: { item: campaignItem(eligibility) } };
});

/**
 * Endpoint 7: the subscription moves to the campaign (its product changes; a cancelled one is
 * activated again) and the campaign is answered. Not eligible: `409` with the reason's code, naming
 * the parameter given; a second call therefore answers `409 already_on_campaign`.
 */
const subscribe = apiRoute(subscribeToCampaign, ({ input, state, auth, clock }) => {
  const u = retentionTarget(state, auth.account!, input);
  const eligibility = judgeRetention(state, u, clock.nowMs());
  if ('code' in eligibility)
    throw new HttpError(
      409,
      eligibility.code,
      eligibility.message,
      input.order_id !== undefined ? 'order_id' : 'user_product_id',
    );
  const { offer, campaign } = eligibility;
  state.userProducts.update(u, (r) => {
    r.product_id = campaign.id;
    r.product_code = campaign.product_code;
    r.title_code = campaign.title_code;
    r.state = 'activated';
    r.cancelled_at = null;
    r.cancellation_reason_id = null;
    r.retention_offer_id = offer.id;
    r.updated = clock.now().toISOString();
  });
  return { body: { item: campaignItem(eligibility) } };
});

/** The routes of this file. */
export const meRetentionRoutes: readonly Route[] = [eligible, subscribe];
