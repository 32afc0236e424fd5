/** The signed-in user (endpoint 24) and what the platform's public documentation adds to the me API. */

import { cancelProduct, getMeDocumented, getMyActiveProducts, getSignedInUser } from '../../src/endpoints.js';
import type { DocumentedUser, DocumentedUserV3 } from '../../src/schemas/me.js';
import type { SignedInUser } from '../../src/schemas/sign-on.js';
import { timeMs } from '../core/clock.js';
import type { AccountRecord, UserProductRecord } from '../core/document.js';
import { HttpError, notFound } from '../core/errors.js';
import { sameId } from '../core/ids.js';
import { apiRoute, type Route } from '../core/route.js';
import type { State } from '../core/state.js';
import { activeProductCodes, stateAt } from '../core/user-products.js';

/** A user-product as the documented me API lists it (v1). */
function documentedUserProduct(state: State, u: UserProductRecord, nowMs: number) {
  const shown = stateAt(u, nowMs);
  return {
    id: u.id,
    order_id: u.order_id,
    created: u.created,
    updated: u.updated,
    product_code: u.product_code,
    title_code: u.title_code,
    valid_from: u.valid_from,
    valid_to: u.valid_to,
    provision_service: u.provision_service,
    subscription_type: u.subscription_type,
    // v3's fields (left out of v1 by the caller).
    state: shown,
    subscription_number: u.subscription_number,
    has_pending_change_request: u.has_pending_change_request,
    campaign_end_date: state.products.get(u.product_id)?.is_campaign ? u.valid_to : null,
    subscription_end_date: u.subscription_type === 'limited' || shown !== 'activated' ? u.valid_to : null,
  };
}

/**
 * The signed-in user as the platform's public documentation shows it: snake_case, every
 * user-product of the account (oldest first). Fields the platform does not model are empty
 * strings; `birth_date` is null when unknown.
 */
function documentedUser(state: State, a: AccountRecord, v3: boolean, nowMs: number): DocumentedUser | DocumentedUserV3 {
  const address = a.address;
  const userProducts = [...state.userProductsOf(a.id)]
    .sort((x, y) => timeMs(x.created) - timeMs(y.created))
    .map((u) => {
      const full = documentedUserProduct(state, u, nowMs);
      if (v3) return full;
      const {
        state: _s,
        subscription_number: _n,
        has_pending_change_request: _p,
        campaign_end_date: _c,
        subscription_end_date: _e,
        ...v1
      } = full;
      return v1;
    });
  return {
    id: a.id,
    email: a.email,
    status: a.status,
    verified: a.verified,
    customer_number: a.customer_number,
    first_name: a.first_name,
    last_name: a.last_name,
    mobile_phone_number: a.mobile_number ?? '',
    birth_date: a.date_of_birth ?? null,
    gender: '',
    company_registration_number: '',
    alias: '',
    account_origin: '',
    address: {
      first_name: a.first_name,
      last_name: a.last_name,
      street: address?.street ?? '',
      street_number: '',
      staircase: '',
      floor: '',
      apartment_number: '',
      zip_code: address?.zip_code ?? '',
      city: address?.city ?? '',
      drop_box: '',
    },
    user_products: userProducts,
  } as DocumentedUser | DocumentedUserV3;
}

/**
 * Endpoint 24: the account the user token is tied to, spelled as the spec's Signed-in user account
 * (the default), or as the platform's public documentation shows it (`meShape: 'documented'`).
 */
const me = apiRoute(getSignedInUser, ({ auth, state, settings, clock }) => {
  // The core refuses a token without a user (403 identity_required) before this runs.
  const a = auth.account!;
  // The documented shape is not endpoint 24's schema: the table types the spec's answer only.
  if (settings.meShape === 'documented')
    return { body: { item: documentedUser(state, a, false, clock.nowMs()) } as unknown as SignedInUser };
  const address = a.address ?? { street: '', zip_code: '', city: '', country_code: '' };
  return {
    body: {
      id: a.id,
      email: a.email,
      firstName: a.first_name,
      lastName: a.last_name,
      customerNumber: a.customer_number,
      address: {
        street: address.street,
        zipCode: address.zip_code,
        city: address.city,
        countryCode: address.country_code,
      },
    },
  };
});

/**
 * Cancel product (beyond the spec): the user's user-product becomes `cancelled`, still running to
 * the end of its term (endpoint 16 can reactivate it). Only an `activated`, recurring,
 * platform-controlled user-product of a product the customer may cancel; a reason, when given, must
 * be one the end customer can see.
 */
const cancel = apiRoute(cancelProduct, ({ input, state, auth, clock }) => {
  const account = auth.account!;
  const u = state.userProductOfAccount(account.id, input.id);
  if (!u) throw notFound('id', 'No subscription of yours with that id');
  if (input.cancellation_reason_id !== undefined) {
    const r = state.cancellationReasons.get(input.cancellation_reason_id);
    if (!r || !sameId(r.organisation_id, account.organisation_id) || r.internal || !r.visible_to_end_customer)
      throw notFound('cancellation_reason_id', 'Cancellation reason not found');
  }
  if (u.provision_service !== null)
    throw new HttpError(
      409,
      'user_product_not_platform_provisioned',
      'The subscription is managed by another system',
      'id',
    );
  if (u.subscription_type !== 'recurring')
    throw new HttpError(409, 'not_recurring', 'Only a recurring subscription can be cancelled', 'id');
  if (state.products.get(u.product_id)?.customer_can_cancel === false)
    throw new HttpError(409, 'not_cancellable', 'The customer cannot cancel this product', 'id');
  if (u.state !== 'activated')
    throw new HttpError(409, 'invalid_state', `The subscription is ${stateAt(u, clock.nowMs())}`, 'id');
  state.userProducts.update(u, (r) => {
    r.state = 'cancelled';
    r.cancelled_at = clock.now().toISOString();
    r.cancellation_reason_id = input.cancellation_reason_id ?? null;
    r.updated = r.cancelled_at;
  });
  return { body: { id: u.id } };
});

/** `GET /external/api/v3/me` (beyond the spec): always the documented shape, user-products with their state. */
const meV3 = apiRoute(getMeDocumented, ({ auth, state, clock }) => ({
  body: { item: documentedUser(state, auth.account!, true, clock.nowMs()) as DocumentedUserV3 },
}));

/** `GET /external/api/v1/me/active_products` (beyond the spec): the user's own active products. */
const myActiveProducts = apiRoute(getMyActiveProducts, ({ auth, state, clock }) => {
  const a = auth.account!;
  return { body: { item: { id: a.id, active_products: activeProductCodes(state, a.id, clock.nowMs()) } } };
});

/** The routes of this file. */
export const meRoutes: readonly Route[] = [me, meV3, myActiveProducts, cancel];
