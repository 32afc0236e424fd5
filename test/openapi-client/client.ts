/**
 * A client generated from the package's OpenAPI document, as a test suite in another stack would
 * make one: `schema.d.ts` is openapi-typescript's output (kept current by
 * test/openapi-client.test.ts), the calls are openapi-fetch's. It calls every operation of the
 * document once, with nothing but the document's types, the demo seed's ids and its credentials;
 * endpoint 6, a GET with a JSON body that fetch cannot send, goes through node:http.
 */
import * as http from 'node:http';
import { SignJWT } from 'jose';
import createClient from 'openapi-fetch';
import { demoCredentials, demoIds, demoShop, demoSite, demoUsers } from '../../mock/seeds/demo.js';
import type { operations, paths } from './schema.js';

/** One operation called: its id and the status it was answered with. */
export interface Called {
  operationId: keyof operations;
  status: number;
}

/** Where the standalone servers listen: stage serves every operation but one, production that one. */
export interface Origins {
  stage: string;
  production: string;
}

type EligibleBody = NonNullable<operations['eligibleForCampaign']['requestBody']>['content']['application/json'];
type EligibleAnswer = operations['eligibleForCampaign']['responses'][200]['content']['application/json'];

/** Endpoint 6 over node:http: the body typed by the document, framed by Content-Length. */
function eligibleForCampaign(origin: string, token: string, body: EligibleBody): Promise<[number, EligibleAnswer]> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL('/external/api/v1/me_retention/eligible_for_campaign', origin),
      {
        method: 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
        },
      },
      (res) => {
        let answer = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          answer += c;
        });
        res.on('end', () => resolve([res.statusCode ?? 0, JSON.parse(answer) as EligibleAnswer]));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** An SSO request token of the demo site: HS256, `typ: JWT`, the claims every operation carries and `claims`. */
function ssoToken(claims: Record<string, string>, lifetime = 10): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ cid: demoSite.clientId, ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(demoSite.organisationId)
    .setAudience(demoSite.ssoAudience)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + lifetime)
    .sign(new TextEncoder().encode(demoSite.clientSecret));
}

/** A session token's claims, read without verifying: the Python example and the SDK verify them. */
function claimsOf(token: string | undefined): { sid: string } {
  return JSON.parse(Buffer.from(token?.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

/** Every operation of the document, called once against the standalone servers. */
export async function callEveryOperation(origins: Origins): Promise<Called[]> {
  const called: Called[] = [];
  const record = (operationId: keyof operations, response: Response) => {
    called.push({ operationId, status: response.status });
  };
  const api = createClient<paths>({ baseUrl: origins.stage });
  const { accounts, userProducts } = demoIds;

  // The client-credentials grant, as the security scheme's description says: no scope, all of the client's.
  const grant = await api.POST('/api/authorization/access_token', {
    body: { grant_type: 'none', client_id: demoCredentials.clientId, client_secret: demoCredentials.clientSecret },
  });
  record('requestAccessToken', grant.response);
  const bearer = { headers: { authorization: `Bearer ${grant.data?.access_token}` } };
  const site = await api.POST('/api/authorization/access_token', {
    body: { grant_type: 'none', client_id: demoSite.clientId, client_secret: demoSite.clientSecret },
  });
  const siteBearer = { headers: { authorization: `Bearer ${site.data?.access_token}` } };

  // A user's token, from a ticket: the way a site gets one.
  const ticket = await api.POST('/api/authorization/ticket', {
    ...siteBearer,
    body: { accountId: accounts.gus, clientId: demoSite.clientId },
  });
  record('generateTicket', ticket.response);
  const user = await api.POST('/api/authorization/access_token', {
    body: {
      grant_type: 'ticket',
      ticket: ticket.data?.ticket ?? '',
      client_id: demoSite.clientId,
      client_secret: demoSite.clientSecret,
    },
  });
  const asGus = { headers: { authorization: `Bearer ${user.data?.access_token}` } };

  // Products and prices (1, 2, 3, 15).
  record('getProducts', (await api.GET('/external/api/v1/products', { ...bearer, params: { query: {} } })).response);
  record(
    'getPaymentPeriods',
    (
      await api.GET('/external/api/v1/products/payment_periods', {
        ...bearer,
        params: { query: { product_code: 'premium-digital' } },
      })
    ).response,
  );
  record(
    'getProductSharing',
    (
      await api.GET('/external/api/v1/products/get_product_sharing', {
        ...bearer,
        params: { query: { code: 'premium-digital' } },
      })
    ).response,
  );
  const products = await api.GET('/external/api/v1/products', {
    ...bearer,
    params: { query: { product_code: 'premium-digital' } },
  });
  const integrationCode = products.data?.items[0]?.integration_code ?? '';
  record(
    'updatePrices',
    (
      await api.POST('/external/api/v1/prices', {
        ...bearer,
        body: {
          package_integration_code: integrationCode,
          price_periods: [
            { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price: 12.9 },
          ],
        },
      })
    ).response,
  );

  // The account change log (4) and subscriptions (5, 12, 13, 16).
  record(
    'availableChangeLogCategories',
    (await api.GET('/external/api/v1/account_change_log/available_categories', bearer)).response,
  );
  record(
    'logToAccounts',
    (
      await api.PUT('/external/api/v1/account_change_log/log_to_accounts', {
        ...bearer,
        body: {
          change_logs: [
            { account_id: accounts.anna, category_type: 'customer_contact', message: 'Called', requested_by: 'client' },
          ],
        },
      })
    ).response,
  );
  record(
    'transferSubscription',
    (
      await api.PUT('/external/api/v1/subscription/transfer_subscription', {
        ...bearer,
        body: {
          source_account_id: accounts.bo,
          subscription_id: userProducts.boBasic,
          target_account_email: demoUsers.anna.email,
        },
      })
    ).response,
  );
  const provisioned = await api.POST('/external/api/v1/userproducts', {
    ...bearer,
    body: {
      account_id: accounts.anna,
      package_code: 'premium-digital',
      subscription_type: 'recurring',
      valid_from: '2030-01-01T00:00:00Z',
      valid_to: '2031-01-01T00:00:00Z',
    },
  });
  record('provisionUserProduct', provisioned.response);
  record(
    'updateUserProduct',
    (
      await api.PUT('/external/api/v1/userproducts', {
        ...bearer,
        body: { account_id: accounts.anna, product_id: provisioned.data?.id ?? '', state: 'deactivated' },
      })
    ).response,
  );

  // The me API with the user's token (6, 7, the cancel product, 24, v3, active products).
  const [eligibleStatus] = await eligibleForCampaign(origins.stage, user.data?.access_token ?? '', {
    user_product_id: userProducts.gusPsp,
  });
  called.push({ operationId: 'eligibleForCampaign', status: eligibleStatus });
  record(
    'subscribeToCampaign',
    (
      await api.PUT('/external/api/v1/me_retention/subscribe_to_campaign', {
        ...asGus,
        body: { user_product_id: userProducts.gusPsp },
      })
    ).response,
  );
  record('getSignedInUser', (await api.GET('/external/api/v1/me/', asGus)).response);
  record('getMeV3', (await api.GET('/external/api/v3/me', asGus)).response);
  record(
    'getMyActiveProducts',
    (await api.GET('/external/api/v1/me/active_products', { ...asGus, params: { query: {} } })).response,
  );
  record(
    'cancelProduct',
    (
      await api.PUT('/external/api/v1/me/cancel_product', {
        ...asGus,
        body: { id: userProducts.gusPsp, cancellation_reason_id: demoIds.cancellationReasons.tooExpensive },
      })
    ).response,
  );

  // Helpdesk (8, 10, 11) and cancellation reasons (14).
  record(
    'getPendingHelpdeskMessages',
    (
      await api.GET('/external/api/v1/helpdesk_messages/get_pending_messages', {
        ...bearer,
        params: { query: { account_id: accounts.anna } },
      })
    ).response,
  );
  record(
    'getHelpdeskMessage',
    (
      await api.GET('/external/api/v1/helpdesk_messages', {
        ...bearer,
        params: { query: { id: demoIds.helpdeskMessages.annaResolved } },
      })
    ).response,
  );
  record(
    'getHelpdeskMessageTemplate',
    (
      await api.GET('/external/api/v1/helpdesk_message_templates', {
        ...bearer,
        params: { query: { id: demoIds.helpdeskTemplates.invoice } },
      })
    ).response,
  );
  const production = createClient<paths>({ baseUrl: origins.production });
  const productionGrant = await production.POST('/api/authorization/access_token', {
    body: { grant_type: 'none', client_id: demoCredentials.clientId, client_secret: demoCredentials.clientSecret },
  });
  record(
    'getHelpdeskMessageTemplateProduction',
    (
      await production.GET('/external/api/v1/helpdesk_messages_templates', {
        headers: { authorization: `Bearer ${productionGrant.data?.access_token}` },
        params: { query: { id: demoIds.helpdeskTemplates.invoice } },
      })
    ).response,
  );
  record(
    'getCancellationReason',
    (
      await api.GET('/external/api/v1/cancellation_reason', {
        ...bearer,
        params: { query: { visible_to_end_customer: true } },
      })
    ).response,
  );

  // The external subscription system (17-20), orders (9, 17) and accounts.
  record(
    'reactivatePlatformProvisionedSubscription',
    (
      await api.PUT('/external/api/v1/subscription_system/reactivate_platform_provisioned_subscription', {
        ...bearer,
        body: { account_id: accounts.gus, user_product_id: userProducts.gusPsp },
      })
    ).response,
  );
  record(
    'syncAddressFromExternalSubscriptionSystem',
    (
      await api.PUT('/external/api/v1/subscription_system/sync_address_from_external_subscription_system', {
        ...bearer,
        body: { customer_number: 'C1001' },
      })
    ).response,
  );
  record(
    'syncCustomerSubscriptions',
    (
      await api.PUT('/external/api/v1/subscription_system/sync_customer_subscriptions', {
        ...bearer,
        body: { customer_number: 'C1007' },
      })
    ).response,
  );
  record(
    'distributionInformation',
    (
      await api.GET('/external/api/v1/subscription_system/distribution_information', {
        ...bearer,
        params: {
          query: { product_code: 'premium-digital', period_id: demoIds.periods.premiumCreditcard, zip_code: '903 25' },
        },
      })
    ).response,
  );
  record(
    'validateGiftReceiver',
    (
      await api.POST('/external/api/v1/order/validate_gift_receiver', {
        ...bearer,
        body: {
          giver_account_id: accounts.anna,
          campaign_code: 'premium-summer',
          delivery_address: {
            first_name: 'Karin',
            last_name: 'Kvist',
            street: 'Storgatan',
            street_number: '1',
            zip_code: '111 22',
            city: 'Stockholm',
            country_code: 'SE',
          },
        },
      })
    ).response,
  );
  record(
    'orderValidation',
    (
      await api.GET('/external/api/v2/order_validation', {
        ...siteBearer,
        params: { query: { product_code: 'premium-digital', account_id: accounts.anna } },
      })
    ).response,
  );
  record(
    'getAccountActiveProducts',
    (
      await api.GET('/external/api/v1/accounts/active_products', {
        ...bearer,
        params: { query: { account_id: accounts.gus } },
      })
    ).response,
  );
  record('listTitles', (await api.GET('/external/api/v1/titles/', bearer)).response);
  record(
    'findOneTitle',
    (await api.GET('/external/api/v1/titles/find_one', { ...bearer, params: { query: { title_code: 'DAILY' } } }))
      .response,
  );

  // The shop (25): a ticket for the shop's client, the page it logs the user in on.
  const forShop = await api.POST('/api/authorization/ticket', {
    ...siteBearer,
    body: { accountId: accounts.anna, clientId: demoShop.clientId },
  });
  record(
    'openShop',
    (
      await api.GET('/marketplace/{groupId}/{marketplaceId}', {
        params: {
          path: { groupId: demoShop.groupId, marketplaceId: demoShop.marketplaceId },
          query: { at: forShop.data?.ticket ?? '', returnUrl: 'http://localhost:3000/return' },
        },
        parseAs: 'text',
        redirect: 'manual',
      })
    ).response,
  );

  // The SSO service (21, identify, createsession, authenticate, sessionstatus, logout).
  const identify = await api.GET('/identify', {
    params: { query: { t: await ssoToken({}, 60), r: 'http://localhost:3000/' } },
    parseAs: 'text',
    redirect: 'manual',
  });
  record('ssoIdentify', identify.response);
  const device = { ipa: '203.0.113.7', uas: 'generated client' };
  const created = await api.POST('/createsession', {
    body: { t: await ssoToken({ ...device, apn: 'client', apv: '1', osn: 'linux', osv: '6' }) },
  });
  record('ssoCreatesession', created.response);
  const sid = claimsOf(created.data?.t).sid;
  record(
    'ssoAuthenticate',
    (
      await api.POST('/authenticate', {
        body: { t: await ssoToken({ ...device, sid, usr: demoUsers.bo.email, pwd: demoUsers.bo.password }) },
      })
    ).response,
  );
  record(
    'ssoSessionstatus',
    (await api.POST('/sessionstatus', { body: { t: await ssoToken({ ...device, sid, lks: 'loggedin' }) } })).response,
  );
  record('ssoLogout', (await api.POST('/logout', { body: { t: await ssoToken({ ...device, sid }) } })).response);
  const another = await api.POST('/createsession', {
    body: { t: await ssoToken({ ...device, apn: 'client', apv: '1', osn: 'linux', osv: '6' }) },
  });
  const anotherSid = claimsOf(another.data?.t).sid;
  const forSso = await api.POST('/api/authorization/ticket', {
    ...siteBearer,
    body: { accountId: accounts.anna, clientId: demoSite.clientId },
  });
  record(
    'ssoAuthenticatewithticket',
    (
      await api.POST('/authenticatewithticket', {
        body: { t: await ssoToken({ ...device, sid: anotherSid, at: forSso.data?.ticket ?? '' }) },
      })
    ).response,
  );
  return called;
}
