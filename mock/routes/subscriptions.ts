/** Endpoint 5, transfer subscription: a user-product moves, with its history, to another account. */
import { transferSubscription } from '../../src/endpoints.js';
import { HttpError, invalidParameter } from '../core/errors.js';
import { sameId } from '../core/ids.js';
import { apiRoute, type Route } from '../core/route.js';
import { transfer } from '../core/user-products.js';

/** The spec's 404 for a missing source account or subscription: `does_not_exist` on `unspecified_field`. */
function doesNotExist(message: string): HttpError {
  return new HttpError(404, 'does_not_exist', message, 'unspecified_field');
}

/**
 * Endpoint 5, in the spec's order: the source account, the subscription on it, the target account
 * by e-mail (of the organisation); then the preconditions the spec states: not paid through `psp`
 * (409 `invalid_state`), and this package's choices: the target is another account (400) and an
 * active one (409 `invalid_state`). The user-product, its orders and payment profiles move; the
 * answer is the user-product's id.
 */
const transferRoute = apiRoute(transferSubscription, ({ input, state, auth, clock }) => {
  const org = auth.client.organisation_id;
  const source = state.account(org, input.source_account_id);
  if (!source) throw doesNotExist('The source account does not exist');
  const u = state.userProductOfAccount(source.id, input.subscription_id);
  if (!u) throw doesNotExist('The subscription does not exist on the source account');
  const target = state.accountByEmail(org, input.target_account_email);
  if (!target)
    throw new HttpError(404, 'account_not_found', 'No account with that e-mail address', 'target_account_email');
  if (sameId(target.id, source.id))
    throw invalidParameter('target_account_email', 'Parameter must name another account than the source');
  if (u.payment_option === 'psp')
    throw new HttpError(
      409,
      'invalid_state',
      'A subscription paid through psp cannot be transferred',
      'subscription_id',
    );
  if (target.status !== 'active')
    throw new HttpError(409, 'invalid_state', 'The target account is not active', 'target_account_email');
  transfer(state, clock, u, target.id);
  return { body: { id: u.id } };
});

/** The routes of this file. */
export const subscriptionRoutes: readonly Route[] = [transferRoute];
