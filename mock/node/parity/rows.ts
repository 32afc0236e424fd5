/**
 * The rows of `docs/assumptions.md` the parity scenarios test, each spelt `Section / Topic` as the
 * document has them (a test holds every one to the document). A difference names its row, so that
 * it says which guess to fix.
 */
import { row } from './scenario.js';

const AUTH = 'Authentication and authorization';
const REQUESTS = 'Requests and errors';
const PRODUCTS = 'Products, prices and periods (endpoints 1, 2, 3, 15)';
const SUBSCRIPTIONS = 'Subscriptions (endpoints 13, 12, 5, 16, 4)';
const HELPDESK = 'Helpdesk, cancellation reasons and retention (endpoints 8, 10, 11, 14, 6, 7; cancel product)';
const SYSTEM = 'The external subscription system (endpoints 17, 18, 19, 20)';
const TICKETS = 'Tickets and user tokens (endpoints 22, 23, 24)';
const SSO = 'SSO (endpoint 21)';
const SSO_SERVICE = 'The rest of the SSO service (beyond the spec)';
const ME = 'The me, account and titles API (beyond the spec)';
const SHOP = 'The shop and the way back (endpoint 25, Return flow)';

export const ROWS = {
  serverToken: row(AUTH, 'How an API client gets its server-to-server token (Authentication 8)'),
  badToken: row(AUTH, 'Missing, malformed, unknown, expired or revoked bearer token'),
  scope: row(AUTH, "Token without the endpoint's scope"),
  identity: row(AUTH, 'Token without a user on endpoints 6, 7, 24'),
  order: row(AUTH, 'Order of checks'),

  field: row(REQUESTS, 'Which field an error names'),
  contentType: row(REQUESTS, '`invalid_content_type_error`'),
  json: row(REQUESTS, '`json_parser_error`'),
  query: row(REQUESTS, 'Query parameters'),
  correlation: row(REQUESTS, 'Correlation id'),
  route: row(REQUESTS, 'Unknown route, wrong method'),
  forms: row(REQUESTS, "A body that matches none of an endpoint's forms (22, 23)"),

  organisations: row(PRODUCTS, 'Organisations'),
  inactive: row(PRODUCTS, 'Inactive product'),
  pricesPeriod: row(PRODUCTS, 'Endpoint 1: which stored period a request period updates'),
  productAbsent: row(PRODUCTS, 'Endpoint 2: `id` or `product_code` that names no product'),
  tags: row(PRODUCTS, 'Endpoint 2: `tags`'),
  productType: row(PRODUCTS, 'Endpoint 2: `product_type=products`'),
  periodsName: row(PRODUCTS, 'Endpoint 3: parameter name'),
  sharing: row(PRODUCTS, 'Endpoint 15: a product without sharing options'),

  provisionPackage: row(SUBSCRIPTIONS, '13: the package'),
  provisionWindow: row(SUBSCRIPTIONS, '13: `valid_from` after `valid_to`'),
  provisioned: row(SUBSCRIPTIONS, '13: the new user-product'),
  updateOrder: row(SUBSCRIPTIONS, '12: order of checks'),
  updateWhat: row(SUBSCRIPTIONS, '12: what can change'),
  transferOrder: row(SUBSCRIPTIONS, '5: order of checks'),
  reactivateOrder: row(SUBSCRIPTIONS, '16: order of checks'),
  categories: row(SUBSCRIPTIONS, '4: available categories'),
  category: row(SUBSCRIPTIONS, '4: a category not available'),

  helpdeskOrder: row(HELPDESK, "Order of endpoint 8's list"),
  helpdeskOther: row(HELPDESK, 'A message or template of another organisation'),
  templates: row(HELPDESK, 'Templates'),
  reasonFlags: row(HELPDESK, "Endpoint 14's flags"),
  retentionWhose: row(HELPDESK, 'Endpoints 6 and 7: whose subscription'),
  retentionParameters: row(HELPDESK, "Endpoint 6's parameters"),
  cancelProduct: row(HELPDESK, 'Cancel product (beyond the spec)'),

  syncCustomer: row(SYSTEM, '18: the customer'),
  giftGiver: row(SYSTEM, '17: giver and campaign'),
  distributionProduct: row(SYSTEM, '20: product and period'),

  ticketForm: row(TICKETS, 'Ticket form'),
  ticketWhichForm: row(TICKETS, 'Endpoint 22: which form'),
  ticketGrant: row(TICKETS, 'Endpoint 23, ticket grant: order of checks'),
  userScopes: row(TICKETS, 'User token scopes'),
  refresh: row(TICKETS, 'Refresh tokens'),

  ssoFailedToken: row(SSO, 'A request token that fails verification'),
  ssoUnknownSession: row(SSO, 'Unknown session'),
  ssoSameAccount: row(SSO, 'LoggedIn + ticket of the same account'),
  ssoTerminated: row(SSO, 'LoggedIn + ticket of another account; Terminated'),
  ssoConstants: row(SSO, 'Session token constants'),
  ssoCreate: row(SSO_SERVICE, 'Createsession'),
  ssoIdentify: row(SSO_SERVICE, 'Identify'),
  ssoStatus: row(SSO_SERVICE, 'Sessionstatus: when a fresh `at`'),
  ssoAuthenticate: row(SSO_SERVICE, 'Authenticate: checks in order'),
  ssoLogout: row(SSO_SERVICE, 'Logout'),

  meShapes: row(ME, '`GET /external/api/v1/me`: two shapes'),
  meFields: row(ME, 'Documented user fields the platform does not model'),
  activeProducts: row(ME, 'Active products'),
  articles: row(ME, '`include_articles`'),
  accountActive: row(ME, 'Account active products'),
  titles: row(ME, 'Titles'),

  shopTicket: row(SHOP, 'The ticket in the marketplace URL'),
  shopReturn: row(SHOP, 'Return URL parameter'),
  shopHeaders: row(SHOP, "Shop pages' headers"),
} as const;
