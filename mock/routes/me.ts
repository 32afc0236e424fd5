/** The signed-in user (endpoint 24) and what the platform's public documentation adds to the me API. */
import { cancelProduct, getSignedInUser } from '../../src/endpoints.js';
import { HttpError, notFound } from '../core/errors.js';
import { apiRoute, type Route } from '../core/route.js';

/** Endpoint 24: the account the user token is tied to, spelled as the spec's Signed-in user account. */
const me = apiRoute(getSignedInUser, ({ auth }) => {
  // The core refuses a token without a user (403 identity_required) before this runs.
  const a = auth.account!;
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
  const u = state.userProducts.get(input.id);
  if (!u || u.account_id.toLowerCase() !== account.id.toLowerCase())
    throw notFound('id', 'No subscription of yours with that id');
  if (input.cancellation_reason_id !== undefined) {
    const r = state.cancellationReasons.get(input.cancellation_reason_id);
    if (
      !r ||
      r.organisation_id.toLowerCase() !== account.organisation_id.toLowerCase() ||
      r.internal ||
      !r.visible_to_end_customer
    )
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
  if (u.state !== 'activated') throw new HttpError(409, 'invalid_state', `The subscription is ${u.state}`, 'id');
  state.userProducts.update(u, (r) => {
    r.state = 'cancelled';
    r.cancelled_at = clock.now().toISOString();
    r.cancellation_reason_id = input.cancellation_reason_id ?? null;
    r.updated = r.cancelled_at;
  });
  return { body: { id: u.id } };
});

/** The routes of this file. */
export const meRoutes: readonly Route[] = [me, cancel];
