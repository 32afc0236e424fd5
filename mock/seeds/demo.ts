/**
 * The `demo` seed: deterministic data covering every case the spec names for the implemented
 * endpoints. Dates are far in the past or future, so which product is active never depends on
 * the day the tests run.
 */
import { endpoints } from '../../src/endpoints.js';
import type { StateDocumentInput } from '../core/document.js';

/**
 * Every scope an endpoint of the table asks for (the spec's summary table, and the scopes of the
 * endpoints beyond it): read from the table, so a new endpoint's scope is the demo client's at once.
 */
export const ALL_SCOPES: readonly string[] = [...new Set(endpoints.flatMap((e) => e.scopes))];

/** The demo client's credentials: all scopes, provision service `demo-provision`, organisation "Demo Media". */
export const demoCredentials = {
  clientId: 'demo-client',
  /** 44 bytes: long enough to sign HS256 tokens (RFC 7518 section 3.2). */
  clientSecret: 'demo-secret-0123456789abcdef0123456789abcdef',
} as const;

/** The SSO audience constant of the demo seed (`aud` of request tokens, `iss` of session tokens). */
export const DEMO_SSO_AUDIENCE = 'sso.platform.test';

/**
 * The demo site's client: what a site example needs for the ticket flow and SSO. Its domain
 * `localhost` returns from the shop in mode `ReturnUrl`, `127.0.0.1` in mode `SeparateTicketAuth`
 * (auth endpoint `/auth/ticket` on the return URL's origin).
 */
export const demoSite: Readonly<{
  clientId: string;
  clientSecret: string;
  organisationId: string;
  ssoAudience: string;
}> = {
  clientId: 'demo-site',
  /** 49 bytes: long enough to sign HS256 tokens (RFC 7518 section 3.2). */
  clientSecret: 'demo-site-secret-0123456789abcdef0123456789abcdef',
  /** The organisation "Demo Media": `iss` of SSO request tokens. */
  organisationId: '0a0000000000000000000001',
  /** The SSO audience constant. */
  ssoAudience: DEMO_SSO_AUDIENCE,
};

/**
 * A second site of "Demo Media" (another news brand): it shares the SSO sessions of the first, so a
 * user logged in on one is logged in on the other through identify.
 */
export const demoSiteB: Readonly<{ clientId: string; clientSecret: string; landingUrl: string }> = {
  clientId: 'demo-site-b',
  clientSecret: 'demo-site-b-secret-0123456789abcdef0123456789abc',
  /** Where SSO identify sends the browser (`npm start` runs site B on port 3001). */
  landingUrl: 'http://localhost:3001/sso/landing',
};

/** The first demo site's SSO landing page (`npm start` runs it on port 3000). */
export const DEMO_SITE_LANDING_URL = 'http://localhost:3000/sso/landing';

/** The shop's client (tickets sent to the shop are bound to it) and its demo marketplace. */
export const demoShop: Readonly<{ clientId: string; clientSecret: string; groupId: string; marketplaceId: string }> = {
  clientId: 'shop-client',
  clientSecret: 'shop-client-secret-0123456789abcdef0123456789ab',
  /** `/marketplace/demo/main`. */
  groupId: 'demo',
  marketplaceId: 'main',
};

/** The scopes the demo sites are granted. */
const SITE_SCOPES = [
  '/api/authorization/ticket',
  '/external/order_validation/r',
  '/external/product/r',
  '/external/cancellation_reason/r',
  '/external/me/r',
  '/external/me/w',
  '/external/title/r',
] as const;

/** A demo user: account id, e-mail address and shop password. */
export interface DemoUser {
  readonly id: string;
  readonly email: string;
  readonly password: string;
}

/** The demo seed's users and their shop passwords (demo values). */
export const demoUsers: Readonly<Record<'anna' | 'bo' | 'carl' | 'dora' | 'eva', DemoUser>> = {
  /** Active, adult, subscribes to nothing live: may buy everything on sale. */
  anna: { id: 'ac0000000000000000000001', email: 'anna@example.com', password: 'anna-demo-password' },
  /** Active, born 2014 (too young for `premium-digital`), subscribes to `basic-news`. */
  bo: { id: 'ac0000000000000000000002', email: 'bo@example.com', password: 'bo-demo-password' },
  /** Not active: no tokens, no tickets, no shop login. */
  carl: { id: 'ac0000000000000000000003', email: 'carl@example.com', password: 'carl-demo-password' },
  /** Of "Complex Media". */
  dora: { id: 'ac0000000000000000000004', email: 'dora@example.com', password: 'dora-demo-password' },
  /** Active, holds a cancelled `premium-summer` still running, and an ended cancelled `basic-news`. */
  eva: { id: 'ac0000000000000000000005', email: 'eva@example.com', password: 'eva-demo-password' },
};

/** Ids, codes and credentials of the demo seed's records, for tests and examples. */
export const demoIds = {
  organisations: { demo: '0a0000000000000000000001', complex: '0a0000000000000000000002' },
  clients: {
    demo: demoCredentials,
    /** The demo site (see {@link demoSite}). */
    site: { clientId: demoSite.clientId, clientSecret: demoSite.clientSecret },
    /** The shop (see {@link demoShop}). */
    shop: { clientId: demoShop.clientId, clientSecret: demoShop.clientSecret },
    /** Only `/external/product/r`. */
    reader: { clientId: 'demo-reader', clientSecret: 'demo-reader-secret-0123456789abcdef0123456789' },
    /** All scopes, no provision service. */
    unprovisioned: { clientId: 'demo-unprovisioned', clientSecret: 'demo-unprovisioned-secret-0123456789abcdef' },
    /** Organisation "Complex Media" (complex price model). */
    complex: { clientId: 'complex-client', clientSecret: 'complex-secret-0123456789abcdef0123456789abcdef' },
  },
  accounts: {
    anna: 'ac0000000000000000000001',
    bo: 'ac0000000000000000000002',
    /** Not active. */
    carl: 'ac0000000000000000000003',
    /** Of "Complex Media". */
    dora: 'ac0000000000000000000004',
    /** Holds a cancelled, still running `premium-summer`. */
    eva: 'ac0000000000000000000005',
    /** Archived: change logs to it, provisioning to it and transfers to it are refused. */
    frank: 'ac0000000000000000000006',
    /** Active, holds a `premium-digital` paid through `psp`, and a `basic-news` of another provision service. */
    gus: 'ac0000000000000000000007',
    /** Active, holds user-products of the demo client's provision service `demo-provision`, and a deactivated one of `other-provision`. */
    hedda: 'ac0000000000000000000008',
    /** A customer-service agent: the assignee of helpdesk messages. */
    ines: 'ac0000000000000000000009',
    /** Holds a limited `premium-digital`, and a `premium-summer` already on a retention campaign. */
    jon: 'ac000000000000000000000a',
    /** Of "Complex Media", archived: change logs to it are refused. */
    kai: 'ac000000000000000000000b',
  },
  products: {
    /** Plain product `digital-news`, integration code `DIGITAL-NEWS`. */
    digitalNews: 'b00000000000000000000001',
    /** Plain product `e-paper`, no sharing record. */
    ePaper: 'b00000000000000000000002',
    /** Package `premium-digital`, integration code `PREMIUM-DIGITAL`, shareable, minimum age 18 (fallback `basic-news`). */
    premiumDigital: 'b00000000000000000000010',
    /** Campaign `premium-summer` on `premium-digital`, integration code `PREMIUM-SUMMER`. */
    premiumSummer: 'b00000000000000000000011',
    /** Package `basic-news`, no integration code, not shareable. */
    basicNews: 'b00000000000000000000012',
    /** Package `legacy-package`, inactive (valid until 2000). */
    legacy: 'b00000000000000000000013',
    /** Package `complex-bundle` of "Complex Media". */
    complexBundle: 'b00000000000000000000020',
  },
  periods: {
    premiumCreditcard: 'c00000000000000000000001',
    premiumPsp: 'c00000000000000000000002',
    premiumInvoice: 'c00000000000000000000003',
    premiumDirectdebitDisabled: 'c00000000000000000000004',
    summerCreditcard: 'c00000000000000000000011',
    basicCreditcard: 'c00000000000000000000021',
    legacyCreditcard: 'c00000000000000000000022',
    complexCreditcard: 'c00000000000000000000031',
    complexPsp: 'c00000000000000000000032',
  },
  userProducts: {
    /** Anna's `premium-digital`, deactivated (2019-2020). */
    annaPremiumDeactivated: 'd00000000000000000000001',
    /** Bo's `basic-news`, activated. */
    boBasic: 'd00000000000000000000002',
    /** Eva's `premium-summer`, cancelled, running until 2999. */
    evaSummerCancelled: 'd00000000000000000000003',
    /** Eva's `basic-news`, cancelled, ended in 2001. */
    evaBasicEnded: 'd00000000000000000000004',
    /** Hedda's `basic-news`, activated, controlled by the demo client's provision service `demo-provision`. */
    heddaProvisioned: 'd00000000000000000000005',
    /** Hedda's `premium-digital`, deactivated, controlled by `demo-provision` (2019-2020). */
    heddaProvisionedDeactivated: 'd00000000000000000000006',
    /** Gus's `basic-news`, activated, controlled by another provision service (`other-provision`). */
    gusOtherProvision: 'd00000000000000000000007',
    /** Gus's `premium-digital`, activated, controlled by the platform, paid through `psp`. */
    gusPsp: 'd00000000000000000000008',
    /** Dora's `complex-bundle` (Complex Media), activated, controlled by `complex-provision`. */
    doraComplex: 'd00000000000000000000009',
    /** Jon's `premium-digital`, limited (not recurring), activated, controlled by the platform. */
    jonLimited: 'd0000000000000000000000a',
    /** Jon's `premium-summer`, moved there by the retention offer: not offered one again. */
    jonRetained: 'd0000000000000000000000b',
    /** Gus's `e-paper`, controlled by the external system `paperline` (PL-1007-1); the system has a later end. */
    gusPaperlineEpaper: 'd0000000000000000000000c',
    /** Gus's `digital-news`, controlled by `paperline` (PL-1007-2), which the system no longer has. */
    gusPaperlineDigital: 'd0000000000000000000000d',
    /** Hedda's `premium-digital`, deactivated (2021-2022), controlled by another provision service (`other-provision`). */
    heddaOtherProvisionDeactivated: 'd0000000000000000000000e',
  },
  helpdeskMessages: {
    /** Anna's, pending, assigned to Ines. */
    annaPendingAssigned: 'f00000000000000000000001',
    /** Anna's, pending, unassigned. */
    annaPendingUnassigned: 'f00000000000000000000002',
    /** Anna's, resolved. */
    annaResolved: 'f00000000000000000000003',
    /** Anna's, in progress. */
    annaInProgress: 'f00000000000000000000004',
    /** Bo's, pending. */
    boPending: 'f00000000000000000000005',
    /** Dora's (Complex Media), pending. */
    doraPending: 'f00000000000000000000006',
  },
  helpdeskTemplates: {
    /** "Invoice question", by Ines. */
    invoice: 'f10000000000000000000001',
    /** "Delivery missing", unassigned. */
    delivery: 'f10000000000000000000002',
    /** Complex Media's. */
    complex: 'f10000000000000000000003',
  },
  cancellationReasons: {
    /** Index 1, visible to the end customer. */
    tooExpensive: 'a10000000000000000000001',
    /** Index 2, visible. */
    noTime: 'a10000000000000000000002',
    /** Index 3, visible. */
    movedAbroad: 'a10000000000000000000003',
    /** Index 4, internal, not visible. */
    paymentFailed: 'a10000000000000000000004',
    /** Index 5, internal and visible (an agent's reason shown to the customer). */
    fraud: 'a10000000000000000000005',
    /** Index 6, not internal, not visible. */
    duplicate: 'a10000000000000000000006',
    /** Complex Media's. */
    complexReason: 'a10000000000000000000007',
  },
  retentionOffers: {
    /** `premium-digital` subscribers about to leave are offered the campaign `premium-summer`. */
    premiumStay: 'a20000000000000000000001',
  },
} as const;

const o = demoIds.organisations;
const p = demoIds.products;
const pp = demoIds.periods;
const c = demoIds.clients;

const CREATED = '2020-01-01T00:00:00Z';
const UPDATED = '2020-06-01T00:00:00Z';
const FROM = '2000-01-01T00:00:00Z';
const TO = '2999-12-31T23:59:59Z';

const digitalNews = {
  id: p.digitalNews,
  product_code: 'digital-news',
  name: 'Digital news',
  description: 'Every article on the web and in the app',
};
const ePaper = {
  id: p.ePaper,
  product_code: 'e-paper',
  name: 'E-paper',
  description: 'The printed edition as a digital replica',
};

const common = {
  organisation_id: o.demo,
  created: CREATED,
  updated: UPDATED,
  valid_from: FROM,
  valid_to: TO,
  parent_product_id: null,
  parent_product_code: null,
  vat_code: '25',
  customer_can_cancel: true,
};

/** The demo packages and campaign a user-product may be of, by product code. */
const PRODUCT_IDS = {
  'premium-digital': p.premiumDigital,
  'premium-summer': p.premiumSummer,
  'basic-news': p.basicNews,
} as const;

/** The `demo` state document. */
export const demoSeed: StateDocumentInput = {
  organisations: [
    { id: o.demo, name: 'Demo Media', price_model: 'simple' },
    { id: o.complex, name: 'Complex Media', price_model: 'complex' },
  ],
  clients: [
    {
      client_id: c.demo.clientId,
      client_secret: c.demo.clientSecret,
      organisation_id: o.demo,
      scopes: [...ALL_SCOPES],
      provision_service: 'demo-provision',
      name: 'Demo client',
    },
    {
      client_id: c.reader.clientId,
      client_secret: c.reader.clientSecret,
      organisation_id: o.demo,
      scopes: ['/external/product/r'],
      provision_service: null,
      name: 'Demo product reader',
    },
    {
      client_id: c.unprovisioned.clientId,
      client_secret: c.unprovisioned.clientSecret,
      organisation_id: o.demo,
      scopes: [...ALL_SCOPES],
      provision_service: null,
      name: 'Demo client without a provision service',
    },
    {
      client_id: c.complex.clientId,
      client_secret: c.complex.clientSecret,
      organisation_id: o.complex,
      scopes: [...ALL_SCOPES],
      provision_service: 'complex-provision',
      name: 'Complex Media client',
    },
    {
      client_id: demoSite.clientId,
      client_secret: demoSite.clientSecret,
      organisation_id: o.demo,
      // What an operator grants a site: tickets, its products and orders, and its users' own data
      // (the retention flow and the me API read with a user token).
      scopes: [...SITE_SCOPES],
      provision_service: null,
      name: 'Demo site',
      landing_url: DEMO_SITE_LANDING_URL,
    },
    {
      client_id: demoSiteB.clientId,
      client_secret: demoSiteB.clientSecret,
      organisation_id: o.demo,
      scopes: [...SITE_SCOPES],
      provision_service: null,
      name: 'Demo site B',
      landing_url: demoSiteB.landingUrl,
    },
    {
      client_id: demoShop.clientId,
      client_secret: demoShop.clientSecret,
      organisation_id: o.demo,
      scopes: ['/api/authorization/ticket', '/external/order_validation/r', '/external/product/r'],
      provision_service: null,
      name: 'Demo shop',
    },
  ],
  accounts: [
    {
      id: demoIds.accounts.anna,
      organisation_id: o.demo,
      email: 'anna@example.com',
      first_name: 'Anna',
      last_name: 'Andersson',
      customer_number: 'C1001',
      status: 'active',
      address: { street: 'Storgatan 1', zip_code: '111 22', city: 'Stockholm', country_code: 'SE' },
      password: demoUsers.anna.password,
      ssn: '19850412-1234',
      date_of_birth: '1985-04-12',
      mobile_number: '+46701234567',
      verified: true,
    },
    {
      id: demoIds.accounts.bo,
      organisation_id: o.demo,
      email: 'bo@example.com',
      first_name: 'Bo',
      last_name: 'Berg',
      customer_number: 'C1002',
      status: 'active',
      address: { street: 'Lillgatan 2', zip_code: '411 01', city: 'Göteborg', country_code: 'SE' },
      password: demoUsers.bo.password,
      ssn: '20140615-5678',
      date_of_birth: '2014-06-15',
    },
    {
      id: demoIds.accounts.carl,
      organisation_id: o.demo,
      email: 'carl@example.com',
      first_name: 'Carl',
      last_name: 'Carlsson',
      customer_number: 'C1003',
      status: 'inactive',
      address: { street: 'Kyrkvägen 3', zip_code: '211 20', city: 'Malmö', country_code: 'SE' },
      password: demoUsers.carl.password,
      date_of_birth: '1970-01-01',
    },
    {
      id: demoIds.accounts.dora,
      organisation_id: o.complex,
      email: 'dora@example.com',
      first_name: 'Dora',
      last_name: 'Dahl',
      customer_number: 'C2001',
      status: 'active',
      address: { street: 'Hamngatan 4', zip_code: '0150', city: 'Oslo', country_code: 'NO' },
      password: demoUsers.dora.password,
    },
    {
      id: demoIds.accounts.eva,
      organisation_id: o.demo,
      email: 'eva@example.com',
      first_name: 'Eva',
      last_name: 'Ek',
      customer_number: 'C1005',
      status: 'active',
      address: { street: 'Ekvägen 5', zip_code: '753 10', city: 'Uppsala', country_code: 'SE' },
      password: demoUsers.eva.password,
      ssn: '19900101-4321',
      date_of_birth: '1990-01-01',
    },
    {
      id: demoIds.accounts.frank,
      organisation_id: o.demo,
      email: 'frank@example.com',
      first_name: 'Frank',
      last_name: 'Fors',
      customer_number: 'C1006',
      status: 'archived',
      address: { street: 'Fjärdgatan 6', zip_code: '831 30', city: 'Östersund', country_code: 'SE' },
    },
    {
      id: demoIds.accounts.gus,
      organisation_id: o.demo,
      email: 'gus@example.com',
      first_name: 'Gus',
      last_name: 'Gran',
      customer_number: 'C1007',
      status: 'active',
      address: { street: 'Granvägen 7', zip_code: '903 25', city: 'Umeå', country_code: 'SE' },
      date_of_birth: '1980-07-07',
    },
    {
      id: demoIds.accounts.hedda,
      organisation_id: o.demo,
      email: 'hedda@example.com',
      first_name: 'Hedda',
      last_name: 'Holm',
      customer_number: 'C1008',
      status: 'active',
      address: { street: 'Holmgatan 8', zip_code: '722 11', city: 'Västerås', country_code: 'SE' },
      date_of_birth: '1975-03-03',
    },
    {
      id: demoIds.accounts.ines,
      organisation_id: o.demo,
      email: 'ines@demo-media.example',
      first_name: 'Ines',
      last_name: 'Isaksson',
      customer_number: 'S0001',
      status: 'active',
      mobile_number: '+46709999999',
      verified: true,
    },
    {
      id: demoIds.accounts.jon,
      organisation_id: o.demo,
      email: 'jon@example.com',
      first_name: 'Jon',
      last_name: 'Jansson',
      customer_number: 'C1010',
      status: 'active',
      date_of_birth: '1988-08-08',
    },
    {
      id: demoIds.accounts.kai,
      organisation_id: o.complex,
      email: 'kai@example.com',
      first_name: 'Kai',
      last_name: 'Kask',
      customer_number: 'C2002',
      status: 'archived',
      address: { street: 'Kirkegata 11', zip_code: '0153', city: 'Oslo', country_code: 'NO' },
    },
  ],
  products: [
    {
      ...common,
      ...digitalNews,
      // A plain product with an integration code: update prices refuses it (not a package).
      integration_code: 'DIGITAL-NEWS',
      is_package: false,
      is_campaign: false,
      title_code: 'DAILY',
      products: [],
      price_periods: [],
      tags: [{ name: 'digital', type: 'product' }],
    },
    {
      ...common,
      ...ePaper,
      is_package: false,
      is_campaign: false,
      title_code: 'EPAPER',
      products: [],
      price_periods: [],
      tags: [],
    },
    {
      ...common,
      id: p.premiumDigital,
      product_code: 'premium-digital',
      integration_code: 'PREMIUM-DIGITAL',
      is_package: true,
      is_campaign: false,
      title_code: 'DAILY',
      name: 'Premium Digital',
      description: 'Digital news and the e-paper',
      products: [digitalNews, ePaper],
      price_periods: [
        {
          id: pp.premiumCreditcard,
          purchase_type: 'recurring',
          payment_option: 'creditcard',
          type: 'month',
          length: 1,
          price: 99,
          enabled: true,
        },
        {
          id: pp.premiumPsp,
          purchase_type: 'recurring',
          payment_option: 'psp',
          type: 'month',
          length: 1,
          price: 99,
          payment_option_details: { type: 'visa', name: 'Visa' },
          enabled: true,
        },
        {
          id: pp.premiumInvoice,
          purchase_type: 'limited',
          payment_option: 'invoice',
          type: 'year',
          length: 1,
          price: 990,
          enabled: true,
        },
        {
          id: pp.premiumDirectdebitDisabled,
          purchase_type: 'recurring',
          payment_option: 'directdebit',
          type: 'month',
          length: 1,
          price: 95,
          enabled: false,
        },
      ],
      tags: [
        { name: 'news', type: 'package' },
        { name: 'premium', type: 'package' },
      ],
      minimum_age: 18,
      fallback_package_code: 'basic-news',
    },
    {
      ...common,
      id: p.premiumSummer,
      product_code: 'premium-summer',
      integration_code: 'PREMIUM-SUMMER',
      is_package: false,
      is_campaign: true,
      parent_product_id: p.premiumDigital,
      parent_product_code: 'premium-digital',
      title_code: 'DAILY',
      name: 'Premium Digital summer offer',
      description: 'Premium Digital at half price for the summer',
      products: [digitalNews, ePaper],
      price_periods: [
        {
          id: pp.summerCreditcard,
          purchase_type: 'recurring',
          payment_option: 'creditcard',
          type: 'month',
          length: 1,
          price: 49,
          enabled: true,
          monthly_payments: true,
        },
      ],
      tags: [
        { name: 'news', type: 'package' },
        { name: 'campaign', type: 'package' },
      ],
    },
    {
      ...common,
      id: p.basicNews,
      product_code: 'basic-news',
      is_package: true,
      is_campaign: false,
      title_code: 'DAILY',
      name: 'Basic news',
      description: 'Digital news only',
      customer_can_cancel: false,
      products: [digitalNews],
      price_periods: [
        {
          id: pp.basicCreditcard,
          purchase_type: 'recurring',
          payment_option: 'creditcard',
          type: 'month',
          length: 1,
          price: 59,
          enabled: true,
        },
      ],
      tags: [{ name: 'news', type: 'package' }],
    },
    {
      ...common,
      id: p.legacy,
      product_code: 'legacy-package',
      integration_code: 'LEGACY',
      valid_from: '1990-01-01T00:00:00Z',
      valid_to: '2000-12-31T23:59:59Z',
      is_package: true,
      is_campaign: false,
      title_code: 'DAILY',
      name: 'Legacy package',
      description: 'No longer on sale',
      products: [ePaper],
      price_periods: [
        {
          id: pp.legacyCreditcard,
          purchase_type: 'recurring',
          payment_option: 'creditcard',
          type: 'month',
          length: 1,
          price: 39,
          enabled: true,
        },
      ],
      tags: [{ name: 'news', type: 'package' }],
    },
    {
      ...common,
      organisation_id: o.complex,
      id: p.complexBundle,
      product_code: 'complex-bundle',
      integration_code: 'COMPLEX-BUNDLE',
      is_package: true,
      is_campaign: false,
      title_code: 'COMPLEX',
      name: 'Complex bundle',
      description: 'Digital and paper, priced per component',
      products: [],
      price_periods: [
        {
          id: pp.complexCreditcard,
          purchase_type: 'recurring',
          payment_option: 'creditcard',
          type: 'month',
          length: 1,
          details: [
            { name: 'Digital', price: 80.5, vat_code: 6 },
            { name: 'Paper', price: 120, vat_code: 25 },
          ],
          enabled: true,
        },
        {
          id: pp.complexPsp,
          purchase_type: 'recurring',
          payment_option: 'psp',
          type: 'month',
          length: 1,
          details: [{ name: 'Digital', price: 80.5, vat_code: 6 }],
          payment_option_details: { type: 'mastercard', name: 'Mastercard' },
          enabled: true,
        },
      ],
      tags: [{ name: 'bundle', type: 'package' }],
    },
  ],
  product_sharing: [
    {
      product_id: p.premiumDigital,
      shareable: true,
      limit: 3,
      sharing_text: 'Share Premium Digital with up to three people in your household',
      sharing_title: 'Share your subscription',
      received_product_text: 'You can now read Premium Digital, shared with you',
      received_product_title: 'A subscription was shared with you',
    },
    {
      product_id: p.basicNews,
      shareable: false,
      limit: 0,
      sharing_text: null,
      sharing_title: null,
      received_product_text: null,
      received_product_title: null,
    },
  ],
  access_tokens: [],
  sso_audience: DEMO_SSO_AUDIENCE,
  tickets: [],
  sso_sessions: [],
  ticket_configurations: [
    { domain: 'localhost', client_id: demoSite.clientId, mode: 'ReturnUrl', auth_endpoint: null },
    { domain: '127.0.0.1', client_id: demoSite.clientId, mode: 'SeparateTicketAuth', auth_endpoint: '/auth/ticket' },
  ],
  marketplaces: [
    {
      group_id: demoShop.groupId,
      marketplace_id: demoShop.marketplaceId,
      name: 'Demo Media shop',
      client_id: demoShop.clientId,
      product_codes: ['premium-digital', 'premium-summer', 'basic-news'],
    },
  ],
  user_products: [
    userProduct(demoIds.userProducts.annaPremiumDeactivated, demoIds.accounts.anna, 'premium-digital', {
      state: 'deactivated',
      valid_from: '2019-01-01T00:00:00Z',
      valid_to: '2020-01-01T00:00:00Z',
      period_id: pp.premiumCreditcard,
    }),
    userProduct(demoIds.userProducts.boBasic, demoIds.accounts.bo, 'basic-news', {
      state: 'activated',
      valid_from: '2020-01-01T00:00:00Z',
      valid_to: TO,
      period_id: pp.basicCreditcard,
    }),
    userProduct(demoIds.userProducts.evaSummerCancelled, demoIds.accounts.eva, 'premium-summer', {
      state: 'cancelled',
      valid_from: '2020-01-01T00:00:00Z',
      valid_to: TO,
      period_id: pp.summerCreditcard,
    }),
    userProduct(demoIds.userProducts.evaBasicEnded, demoIds.accounts.eva, 'basic-news', {
      state: 'cancelled',
      valid_from: '2000-01-01T00:00:00Z',
      valid_to: '2001-01-01T00:00:00Z',
      period_id: pp.basicCreditcard,
    }),
    provisioned(demoIds.userProducts.heddaProvisioned, demoIds.accounts.hedda, 'basic-news', 'demo-provision', {
      state: 'activated',
      valid_from: '2020-01-01T00:00:00Z',
      valid_to: TO,
    }),
    provisioned(
      demoIds.userProducts.heddaProvisionedDeactivated,
      demoIds.accounts.hedda,
      'premium-digital',
      'demo-provision',
      { state: 'deactivated', valid_from: '2019-01-01T00:00:00Z', valid_to: '2020-01-01T00:00:00Z' },
    ),
    provisioned(demoIds.userProducts.gusOtherProvision, demoIds.accounts.gus, 'basic-news', 'other-provision', {
      state: 'activated',
      valid_from: '2020-01-01T00:00:00Z',
      valid_to: TO,
    }),
    {
      ...userProduct(demoIds.userProducts.gusPsp, demoIds.accounts.gus, 'premium-digital', {
        state: 'activated',
        valid_from: '2020-01-01T00:00:00Z',
        valid_to: TO,
        period_id: pp.premiumPsp,
      }),
      payment_option: 'psp',
    },
    {
      ...provisioned(demoIds.userProducts.doraComplex, demoIds.accounts.dora, 'premium-digital', 'complex-provision', {
        state: 'activated',
        valid_from: '2020-01-01T00:00:00Z',
        valid_to: TO,
      }),
      product_id: p.complexBundle,
      product_code: 'complex-bundle',
      title_code: 'COMPLEX',
    },
    {
      ...userProduct(demoIds.userProducts.jonLimited, demoIds.accounts.jon, 'premium-digital', {
        state: 'activated',
        valid_from: '2020-01-01T00:00:00Z',
        valid_to: TO,
        period_id: pp.premiumInvoice,
      }),
      subscription_type: 'limited' as const,
      payment_option: 'invoice',
    },
    {
      ...provisioned(demoIds.userProducts.gusPaperlineEpaper, demoIds.accounts.gus, 'basic-news', 'paperline', {
        state: 'activated',
        valid_from: '2024-01-01T00:00:00Z',
        valid_to: '2025-12-31T23:59:59Z',
      }),
      product_id: p.ePaper,
      product_code: 'e-paper',
      title_code: 'EPAPER',
      subscription_number: 'PL-1007-1',
    },
    {
      ...provisioned(demoIds.userProducts.gusPaperlineDigital, demoIds.accounts.gus, 'basic-news', 'paperline', {
        state: 'activated',
        valid_from: '2024-01-01T00:00:00Z',
        valid_to: TO,
      }),
      product_id: p.digitalNews,
      product_code: 'digital-news',
      subscription_number: 'PL-1007-2',
    },
    {
      ...userProduct(demoIds.userProducts.jonRetained, demoIds.accounts.jon, 'premium-summer', {
        state: 'activated',
        valid_from: '2020-01-01T00:00:00Z',
        valid_to: TO,
        period_id: pp.premiumCreditcard,
      }),
      retention_offer_id: demoIds.retentionOffers.premiumStay,
    },
    provisioned(
      demoIds.userProducts.heddaOtherProvisionDeactivated,
      demoIds.accounts.hedda,
      'premium-digital',
      'other-provision',
      { state: 'deactivated', valid_from: '2021-01-01T00:00:00Z', valid_to: '2022-01-01T00:00:00Z' },
    ),
  ],
  orders: [
    order(demoIds.userProducts.jonLimited, demoIds.accounts.jon, 'premium-digital', pp.premiumInvoice, 'invoice', 990),
    order(
      demoIds.userProducts.jonRetained,
      demoIds.accounts.jon,
      'premium-digital',
      pp.premiumCreditcard,
      'creditcard',
      99,
    ),
    order(
      demoIds.userProducts.annaPremiumDeactivated,
      demoIds.accounts.anna,
      'premium-digital',
      pp.premiumCreditcard,
      'creditcard',
      99,
    ),
    order(demoIds.userProducts.boBasic, demoIds.accounts.bo, 'basic-news', pp.basicCreditcard, 'creditcard', 19),
    order(
      demoIds.userProducts.evaSummerCancelled,
      demoIds.accounts.eva,
      'premium-summer',
      pp.summerCreditcard,
      'creditcard',
      49,
    ),
    order(demoIds.userProducts.evaBasicEnded, demoIds.accounts.eva, 'basic-news', pp.basicCreditcard, 'creditcard', 19),
    order(demoIds.userProducts.gusPsp, demoIds.accounts.gus, 'premium-digital', pp.premiumPsp, 'psp', 99),
  ],
  // Every platform-controlled user-product paid with anything but `free` has one, as a purchase writes.
  payment_profiles: [
    profile('e00000000000000000000001', demoIds.userProducts.annaPremiumDeactivated, demoIds.accounts.anna, {
      payment_option: 'creditcard',
      period_id: pp.premiumCreditcard,
      amount: 99,
    }),
    profile('e00000000000000000000002', demoIds.userProducts.boBasic, demoIds.accounts.bo, {
      payment_option: 'creditcard',
      period_id: pp.basicCreditcard,
      amount: 19,
    }),
    profile('e00000000000000000000003', demoIds.userProducts.evaSummerCancelled, demoIds.accounts.eva, {
      payment_option: 'creditcard',
      period_id: pp.summerCreditcard,
      amount: 49,
    }),
    profile('e00000000000000000000004', demoIds.userProducts.evaBasicEnded, demoIds.accounts.eva, {
      payment_option: 'creditcard',
      period_id: pp.basicCreditcard,
      amount: 19,
    }),
    {
      ...profile('e00000000000000000000005', demoIds.userProducts.gusPsp, demoIds.accounts.gus, {
        payment_option: 'psp',
        period_id: pp.premiumPsp,
        amount: 99,
      }),
      details: { type: 'visa', name: 'Visa' },
    },
    profile('e00000000000000000000006', demoIds.userProducts.jonLimited, demoIds.accounts.jon, {
      payment_option: 'invoice',
      period_id: pp.premiumInvoice,
      amount: 990,
    }),
    profile('e00000000000000000000007', demoIds.userProducts.jonRetained, demoIds.accounts.jon, {
      payment_option: 'creditcard',
      period_id: pp.premiumCreditcard,
      amount: 99,
    }),
  ],
  helpdesk_messages: [
    message(demoIds.helpdeskMessages.annaPendingAssigned, demoIds.accounts.anna, {
      assignee_id: demoIds.accounts.ines,
      created_at: '2024-03-01T09:00:00Z',
      heading: 'Invoice twice',
      message: 'I was charged twice for March.',
      type: 'complaint',
      state: 'pending',
      occurrences: 2,
      comments: [
        {
          id: 'f20000000000000000000001',
          author_id: demoIds.accounts.ines,
          message: 'We are looking into it.',
          created_at: '2024-03-01T10:00:00Z',
        },
      ],
    }),
    message(demoIds.helpdeskMessages.annaPendingUnassigned, demoIds.accounts.anna, {
      created_at: '2024-02-01T09:00:00Z',
      heading: 'Change of address',
      message: 'Please deliver to my new address from April.',
      type: 'request',
      state: 'pending',
    }),
    message(demoIds.helpdeskMessages.annaResolved, demoIds.accounts.anna, {
      assignee_id: demoIds.accounts.ines,
      created_at: '2023-12-01T09:00:00Z',
      resolved_at: '2023-12-02T09:00:00Z',
      heading: 'Login problem',
      message: 'I cannot log in to the app.',
      type: 'question',
      state: 'resolved',
    }),
    message(demoIds.helpdeskMessages.annaInProgress, demoIds.accounts.anna, {
      assignee_id: demoIds.accounts.ines,
      created_at: '2024-01-15T09:00:00Z',
      heading: 'Paper missing',
      message: 'No paper on Saturday.',
      type: 'complaint',
      state: 'in_progress',
    }),
    message(demoIds.helpdeskMessages.boPending, demoIds.accounts.bo, {
      created_at: '2024-03-02T09:00:00Z',
      heading: 'Student discount',
      message: 'Is there a student discount?',
      type: 'question',
      state: 'pending',
    }),
    message(demoIds.helpdeskMessages.doraPending, demoIds.accounts.dora, {
      created_at: '2024-03-03T09:00:00Z',
      heading: 'Bundle question',
      message: 'What does the bundle include?',
      type: 'question',
      state: 'pending',
    }),
  ],
  helpdesk_message_templates: [
    message(demoIds.helpdeskTemplates.invoice, demoIds.accounts.ines, {
      assignee_id: demoIds.accounts.ines,
      created_at: '2023-01-01T09:00:00Z',
      heading: 'Invoice question',
      message: 'Thank you for your question about your invoice. ',
      type: 'request',
      state: 'pending',
      identifier: 'TEMPLATE-INVOICE',
      occurrences: 12,
    }),
    message(demoIds.helpdeskTemplates.delivery, demoIds.accounts.ines, {
      created_at: '2023-01-02T09:00:00Z',
      heading: 'Delivery missing',
      message: 'We are sorry your paper did not arrive. ',
      type: 'request',
      state: 'pending',
      identifier: 'TEMPLATE-DELIVERY',
      occurrences: 40,
    }),
    message(demoIds.helpdeskTemplates.complex, demoIds.accounts.dora, {
      created_at: '2023-01-03T09:00:00Z',
      heading: 'Complex template',
      message: 'A template of Complex Media.',
      type: 'request',
      state: 'pending',
    }),
  ],
  // Stored out of order: endpoint 14 answers them by index.
  cancellation_reasons: [
    reason(demoIds.cancellationReasons.movedAbroad, 3, 'Moved abroad', 'moved_abroad', {
      visible: true,
      internal: false,
    }),
    reason(demoIds.cancellationReasons.tooExpensive, 1, 'Too expensive', 'too_expensive', {
      visible: true,
      internal: false,
    }),
    reason(demoIds.cancellationReasons.noTime, 2, 'No time to read', 'no_time', { visible: true, internal: false }),
    reason(demoIds.cancellationReasons.paymentFailed, 4, 'Payment failed', 'payment_failed', {
      visible: false,
      internal: true,
    }),
    reason(demoIds.cancellationReasons.fraud, 5, 'Suspected fraud', 'fraud', { visible: true, internal: true }),
    reason(demoIds.cancellationReasons.duplicate, 6, 'Duplicate account', 'duplicate', {
      visible: false,
      internal: false,
    }),
    {
      ...reason(demoIds.cancellationReasons.complexReason, 1, 'Complex reason', 'complex', {
        visible: true,
        internal: false,
      }),
      organisation_id: o.complex,
    },
  ],
  titles: [
    {
      organisation_id: o.demo,
      code: 'DAILY',
      name: 'Demo Daily',
      image_url: 'https://media.example/titles/daily.png',
      merchant_image_url: 'https://media.example/titles/daily-merchant.png',
      url: 'https://daily.example',
      rgb: '#1a4d8f',
    },
    {
      organisation_id: o.demo,
      code: 'EPAPER',
      name: 'Demo Daily e-paper',
      image_url: 'https://media.example/titles/epaper.png',
      merchant_image_url: null,
      url: 'https://epaper.daily.example',
      rgb: '#333333',
    },
    { organisation_id: o.complex, code: 'COMPLEX', name: 'Complex Weekly', url: 'https://complex.example' },
  ],
  retention_offers: [
    {
      id: demoIds.retentionOffers.premiumStay,
      organisation_id: o.demo,
      package_id: p.premiumDigital,
      campaign_id: p.premiumSummer,
      name: 'Stay with Premium Digital at half price',
      description: 'Keep every article and the e-paper for 49 a month.',
    },
  ],
  subscription_systems: [
    {
      organisation_id: o.demo,
      vendor: 'Paperline',
      provision_service: 'paperline',
      supports_distribution_information: true,
      customers: [
        {
          // Anna moved: the external system has her new address, and an e-paper the platform does not.
          customer_number: 'C1001',
          address: external('Anna', 'Andersson', 'Nygatan', '9', '113 45', 'Stockholm'),
          subscriptions: [externalSubscription('PL-1001-1', 'e-paper', 'active')],
        },
        {
          // Gus: the e-paper runs longer there; the digital news ended there.
          customer_number: 'C1007',
          address: external('Gus', 'Gran', 'Granvägen', '7', '903 25', 'Umeå'),
          subscriptions: [
            externalSubscription('PL-1007-1', 'e-paper', 'active'),
            externalSubscription('PL-1007-2', 'digital-news', 'ended'),
          ],
        },
        // Eva: no address there, no subscription.
        { customer_number: 'C1005', address: null, subscriptions: [] },
        {
          // Jon: a subscription of a product the organisation does not have.
          customer_number: 'C1010',
          address: external('Jon', 'Jansson', 'Jägargatan', '10', '702 10', 'Örebro'),
          subscriptions: [externalSubscription('PL-1010-1', 'weekend-paper', 'active')],
        },
        {
          // No account on the platform: a household at Anna's old address, with the daily paper.
          customer_number: 'X9001',
          address: external('Stina', 'Ström', 'Storgatan', '1', '111 22', 'Stockholm'),
          subscriptions: [externalSubscription('PL-9001-1', 'premium-digital', 'active')],
        },
      ],
      distribution: {
        zones: [
          { zip_codes: ['111 22', '113 45', '411 01', '753 10'], distribution_days: [1, 2, 3, 4, 5, 6] },
          { zip_codes: ['903 25', '831 30'], distribution_days: [6, 3] },
        ],
        prices: [
          {
            product_code: 'premium-digital',
            period_id: pp.premiumCreditcard,
            distribution_price: '25.00',
            distribution_price_with_tax: '31.25',
          },
          {
            product_code: 'premium-digital',
            period_id: pp.premiumInvoice,
            distribution_price: '250.00',
            distribution_price_with_tax: '312.50',
          },
        ],
      },
    },
    {
      organisation_id: o.complex,
      vendor: 'Simplesubs',
      provision_service: 'simplesubs',
      // Only one vendor integration supports distribution information (spec endpoint 20).
      supports_distribution_information: false,
      customers: [
        {
          customer_number: 'C2001',
          address: { ...external('Dora', 'Dahl', 'Hamngatan', '4', '0150', 'Oslo'), country_code: 'NO' },
          subscriptions: [],
        },
      ],
      distribution: { zones: [], prices: [] },
    },
  ],
  change_log_categories: [
    { organisation_id: o.demo, category_type: 'address_change', name: 'Address change' },
    { organisation_id: o.demo, category_type: 'customer_contact', name: 'Customer contact' },
    { organisation_id: o.demo, category_type: 'complaint', name: 'Complaint' },
    { organisation_id: o.complex, category_type: 'note', name: 'Note' },
  ],
};

/** A user-product controlled by an external provision service: no order, no period, no payment option. */
function provisioned(
  id: string,
  accountId: string,
  code: keyof typeof PRODUCT_IDS,
  service: string,
  fields: { state: 'activated' | 'deactivated'; valid_from: string; valid_to: string },
) {
  return {
    id,
    account_id: accountId,
    product_id: PRODUCT_IDS[code],
    product_code: code,
    title_code: 'DAILY',
    created: fields.valid_from,
    updated: fields.valid_from,
    provision_service: service,
    subscription_type: 'recurring' as const,
    has_pending_change_request: false,
    external_start_date: fields.valid_from,
    payment_option: null,
    period_id: null,
    order_id: null,
    ...fields,
  };
}

/** An address in the external subscription system (in Sweden). */
function external(first: string, last: string, street: string, number: string, zip: string, city: string) {
  return {
    first_name: first,
    last_name: last,
    street,
    street_number: number,
    zip_code: zip,
    city,
    country_code: 'SE',
  };
}

/** A recurring subscription in the external subscription system, from 2024 on. */
function externalSubscription(subscriptionNumber: string, productCode: string, state: 'active' | 'ended') {
  return {
    subscription_number: subscriptionNumber,
    product_code: productCode,
    subscription_type: 'recurring' as const,
    valid_from: '2024-01-01T00:00:00Z',
    valid_to: state === 'active' ? TO : '2024-12-31T23:59:59Z',
    state,
  };
}

/** A helpdesk message (or template) of the demo seed; unassigned, unresolved, no comments unless given. */
function message(
  id: string,
  accountId: string,
  fields: {
    assignee_id?: string;
    created_at: string;
    resolved_at?: string;
    heading: string;
    message: string;
    type: 'request' | 'question' | 'complaint' | 'feedback';
    state: 'pending' | 'in_progress' | 'resolved';
    identifier?: string;
    occurrences?: number;
    comments?: { id: string; author_id: string; message: string; created_at: string }[];
  },
) {
  return {
    id,
    account_id: accountId,
    assignee_id: fields.assignee_id ?? null,
    created_at: fields.created_at,
    updated_at: fields.resolved_at ?? fields.created_at,
    resolved_at: fields.resolved_at ?? null,
    heading: fields.heading,
    message: fields.message,
    type: fields.type,
    identifier: fields.identifier ?? `HD-${id.slice(-4)}`,
    state: fields.state,
    occurrences: fields.occurrences ?? 1,
    comments: fields.comments ?? [],
  };
}

/** A cancellation reason of the demo organisation. */
function reason(id: string, index: number, name: string, code: string, f: { visible: boolean; internal: boolean }) {
  return {
    id,
    organisation_id: o.demo,
    index,
    name,
    code,
    integration_code: code.toUpperCase(),
    visible_to_end_customer: f.visible,
    internal: f.internal,
  };
}

/** The order of a platform-controlled demo user-product (its id is the user-product's `order_id`). */
function order(
  userProductId: string,
  accountId: string,
  code: keyof typeof PRODUCT_IDS,
  periodId: string,
  paymentOption: string,
  amount: number,
) {
  return {
    id: `order-${userProductId.slice(-4)}`,
    account_id: accountId,
    user_product_id: userProductId,
    created: '2020-01-01T00:00:00Z',
    product_id: PRODUCT_IDS[code],
    product_code: code,
    period_id: periodId,
    payment_option: paymentOption,
    amount,
  };
}

/** The payment profile of a platform-controlled demo user-product: its payment option, period and amount. */
function profile(
  id: string,
  userProductId: string,
  accountId: string,
  paid: { payment_option: string; period_id: string; amount: number },
) {
  return {
    id,
    account_id: accountId,
    user_product_id: userProductId,
    created: '2020-01-01T00:00:00Z',
    details: null,
    ...paid,
  };
}

/** A platform-controlled, recurring creditcard user-product of a demo package. */
function userProduct(
  id: string,
  accountId: string,
  code: 'premium-digital' | 'premium-summer' | 'basic-news',
  fields: { state: 'activated' | 'deactivated' | 'cancelled'; valid_from: string; valid_to: string; period_id: string },
) {
  return {
    id,
    account_id: accountId,
    product_id: PRODUCT_IDS[code],
    product_code: code,
    title_code: 'DAILY',
    created: fields.valid_from,
    updated: fields.valid_from,
    provision_service: null,
    subscription_type: 'recurring' as const,
    has_pending_change_request: false,
    external_start_date: null,
    payment_option: 'creditcard',
    order_id: `order-${id.slice(-4)}`,
    ...fields,
  };
}
