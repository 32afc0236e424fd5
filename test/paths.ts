/** The paths the tests call, taken from the endpoint table (stage spellings), never written by hand. */
import * as e from '../src/endpoints.js';
import { type Endpoint, pathOf } from '../src/endpoints.js';

const stage = (endpoint: Endpoint) => pathOf(endpoint, 'stage');

export const paths = {
  prices: stage(e.updatePrices),
  products: stage(e.getProducts),
  paymentPeriods: stage(e.getPaymentPeriods),
  sharing: stage(e.getProductSharing),
  eligibleForCampaign: stage(e.eligibleForCampaign),
  orderValidation: stage(e.validateOrder),
  sso: stage(e.authenticateWithTicket),
  ticket: stage(e.generateTicket),
  token: stage(e.accessToken),
  me: stage(e.getSignedInUser),
  userProducts: stage(e.provisionUserProduct),
  transferSubscription: stage(e.transferSubscription),
  reactivate: stage(e.reactivateSubscription),
  logToAccounts: stage(e.logToAccounts),
  availableCategories: stage(e.getAvailableCategories),
  giftReceiver: stage(e.validateGiftReceiver),
  syncAddress: stage(e.syncAddress),
  syncSubscriptions: stage(e.syncCustomerSubscriptions),
  distribution: stage(e.getDistributionInformation),
} as const;
