/** The signed-in user (endpoint 24): the account a user token is tied to. */
import { getSignedInUser } from '../../src/endpoints.js';
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

/** The routes of this file. */
export const meRoutes: readonly Route[] = [me];
