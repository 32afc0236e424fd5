/**
 * The OpenAPI document tells the truth to a client in any language (issue: the contract for any
 * language): ids as case-insensitive as the platform reads them, date-times by their format and a
 * short pattern, answers open to new fields and requests closed, each body the platform refuses by
 * its schema refused by the document too (its other rules said in words), every header and status
 * the platform answers described, a bearer scheme with the token endpoint named and each
 * operation's scopes in its requirement, user-token operations marked, each operation tagged with
 * the SDK resource that calls it, readable operation ids, the resources as named schemas, and no
 * server variable its URL does not use.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import {
  caseInsensitivePattern,
  DATE_TIME_PATTERN,
  openApiDocument,
  operationIdOf,
  RESOURCE_DESCRIPTIONS,
  RESPONSE_HEADERS,
  tagOf,
} from '../mock/openapi.js';
import * as table from '../src/endpoints.js';
import { type Endpoint, endpoints, pathOf } from '../src/endpoints.js';
import { PlatformClient } from '../src/index.js';
import { dateTime, ID_PATTERN } from '../src/schemas/common.js';
import { demoShop, demoUsers, expectUnchanged, USER_SCOPES, useAdapter } from './mock/harness.js';
import { withAnswersInline } from './openapi-answers.js';

type Json = Record<string, unknown>;
interface Operation extends Json {
  tags: string[];
  description: string;
  security: Record<string, string[]>[];
  'x-scopes'?: string[];
  'x-user-token'?: boolean;
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
  servers?: { url: string; variables?: Record<string, unknown> }[];
}
interface Doc {
  servers: { url: string; variables?: Record<string, unknown> }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
  tags: { name: string }[];
  info: { description: string };
}

const doc = withAnswersInline(openApiDocument()) as unknown as Doc;
const served = withAnswersInline(
  openApiDocument({ server: { url: 'http://127.0.0.1:4010', environment: 'stage', meShape: 'spec' } }),
) as unknown as Doc;
const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops));

/** Every schema object in a value, however deep (JSON Schema's keywords included). */
function* schemaObjects(value: unknown): Generator<Json> {
  if (Array.isArray(value)) for (const v of value) yield* schemaObjects(v);
  else if (value !== null && typeof value === 'object') {
    yield value as Json;
    for (const v of Object.values(value)) yield* schemaObjects(v);
  }
}

function validator(schema: Json, document: Doc = doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: its default export is the module object under Node's ESM.
  (((formats as { default?: unknown }).default ?? formats) as (a: Ajv2020) => Ajv2020)(ajv);
  return ajv.compile({ ...schema, components: document.components });
}

describe('ids', () => {
  test('every id pattern is case-insensitive, as the spec\u2019s /^[a-f\\d]{24}$/i and the platform read ids', () => {
    const patterns = [...schemaObjects(doc)].map((s) => s.pattern).filter((p): p is string => typeof p === 'string');
    expect(patterns).not.toContain(ID_PATTERN.source);
    expect(patterns).toContain('^[a-fA-F\\d]{24}$');
  });

  test('a validating client accepts an id in capitals, as the platform does', () => {
    const query = doc.paths['/external/api/v1/helpdesk_messages']!.get!.parameters as { name: string; schema: Json }[];
    const id = query.find((p) => p.name === 'id')!.schema;
    expect(validator(id)('AC0000000000000000000001')).toBe(true);
    expect(validator(id)('ac0000000000000000000001')).toBe(true);
    expect(validator(id)('XC0000000000000000000001')).toBe(false);
  });

  test.each([
    ['^[a-f\\d]{24}$', '^[a-fA-F\\d]{24}$'],
    ['^ab[c-e]$', '^[aA][bB][c-eC-E]$'],
    ['^[x\\d_]+$', '^[xX\\d_]+$'],
  ])(
    'a case-insensitive pattern %s is written %s, matching what the regex with the i flag matches',
    (source, written) => {
      expect(caseInsensitivePattern(source)).toBe(written);
      const flagged = new RegExp(source, 'i');
      const plain = new RegExp(written);
      for (const text of ['abc', 'ABD', 'aBe', 'abf', 'a'.repeat(24), 'F'.repeat(24), 'x_9', 'X_X', '', 'G'.repeat(24)])
        expect(plain.test(text), text).toBe(flagged.test(text));
    },
  );

  test('a pattern it cannot rewrite is an error, not a wrong pattern', () => {
    expect(() => caseInsensitivePattern('^[^a-f]$')).toThrow(/negated/);
    expect(() => caseInsensitivePattern('^(?<x>a)$')).toThrow(/named group/);
  });
});

describe('date-times', () => {
  test('a date-time carries its format and the short pattern beside it, not zod\u2019s long one', () => {
    const dateTimes = [...schemaObjects(doc)].filter((s) => s.format === 'date-time');
    expect(dateTimes.length).toBeGreaterThan(10);
    expect(dateTimes.filter((s) => s.pattern !== DATE_TIME_PATTERN.source)).toEqual([]);
    // Plain groups alone: no lookaround, no named or non-capturing group, for any validator to run.
    expect(DATE_TIME_PATTERN.source).not.toMatch(/\(\?/);
  });

  test.each([
    '2025-01-01T00:00:00Z',
    '2025-01-01T23:59:59.123456Z',
    '2025-01-01T00:00:00+01:00',
    '2025-01-01T00:00:00-23:59',
    '2024-02-29T00:00:00Z',
    // What format: date-time (RFC 3339) takes and the platform refuses.
    '2025-01-01t00:00:00z',
    '2025-01-01T00:00:00z',
    '2016-12-31T23:59:60Z',
    '2025-01-01 00:00:00Z',
    // What both refuse.
    '2025-02-29T00:00:00Z',
    '2025-01-01T24:00:00Z',
    '2025-01-01T00:00Z',
    '2025-01-01T00:00:00',
    '2025-01-01T00:00:00+0100',
  ])('%s: the document takes it exactly when the platform does', (value) => {
    const schema = { type: 'string', format: 'date-time', pattern: DATE_TIME_PATTERN.source };
    expect(validator(schema)(value)).toBe(dateTime.safeParse(value).success);
  });
});

describe('answers open, requests closed', () => {
  test('no schema of an answer says additionalProperties: false, so a new field the platform adds breaks no client', () => {
    const answers = operations.flatMap((op) =>
      Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {}).map((c) => c.schema)),
    );
    const closed: string[] = [];
    const seen = new Set<string>();
    const visit = (value: unknown, where: string) => {
      for (const s of schemaObjects(value)) {
        if (s.additionalProperties === false) closed.push(where);
        const ref = typeof s.$ref === 'string' ? s.$ref.replace('#/components/schemas/', '') : undefined;
        if (ref && !seen.has(ref)) {
          seen.add(ref);
          visit(doc.components.schemas[ref], ref);
        }
      }
    };
    for (const a of answers) visit(a, 'an answer');
    expect(seen.size).toBeGreaterThan(20);
    expect(closed).toEqual([]);
  });

  test('a request body with a key it does not take is refused by the document, as by the platform (unknown_parameter)', () => {
    const body = doc.paths['/external/api/v1/prices']!.post!.requestBody!.content['application/json']!.schema;
    expect(body).toEqual({ $ref: '#/components/schemas/UpdatePricesRequest' });
    expect(doc.components.schemas.UpdatePricesRequest!.additionalProperties).toBe(false);
    const period = { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price: 1 };
    expect(validator(body)({ package_integration_code: 'X', price_periods: [period] })).toBe(true);
    expect(validator(body)({ package_integration_code: 'X', price_periods: [period], extra: 1 })).toBe(false);
  });
});

describe('authentication', () => {
  test('the security scheme is a bearer token, and names the token endpoint as the way to get one', () => {
    expect(doc.components.securitySchemes).toEqual({
      platformToken: { type: 'http', scheme: 'bearer', description: expect.stringContaining('grant_type=none') },
    });
    expect(doc.components.securitySchemes.platformToken!.description).toContain('/api/authorization/access_token');
  });

  test.each(endpoints.map((e) => [e.title, e] as const))(
    '%s: its security, scopes and user-token mark as the table says',
    (_, e: Endpoint) => {
      const op = doc.paths[typeof e.path === 'string' ? e.path : e.path.stage]![e.method.toLowerCase()]!;
      expect(op.security).toEqual(e.bearer ? [{ platformToken: [...e.scopes] }] : []);
      expect(op['x-scopes']).toEqual(e.bearer ? e.scopes : undefined);
      expect(op['x-user-token']).toBe(e.bearer ? e.identity : undefined);
      if (e.identity) expect(op.description).toMatch(/user token/);
      for (const scope of e.scopes) expect(op.description).toContain(scope);
    },
  );

  test('endpoint 22 says which token each form of its body needs, as the spec states them and the platform holds them', () => {
    const op = doc.paths[pathOf(table.generateTicket, 'stage')]!.post!;
    const schema = doc.components.schemas.GenerateTicketRequest as { description?: string };
    for (const text of [op.description, schema.description]) {
      expect(text).toMatch(/\{ accountId, clientId \}[^.]*server-to-server token/);
      expect(text).toMatch(/\{ client_id \}[^.]*user token/);
      expect(text).toContain('400 invalid_parameter');
    }
  });
});

describe("what an operation needs of the caller's configuration", () => {
  const descriptionOf = (e: Endpoint) => doc.paths[pathOf(e, 'stage')]![e.method.toLowerCase()]!.description;

  test.each([
    ['12', table.updateUserProduct],
    ['13', table.provisionUserProduct],
  ])('endpoint %s says the API client must have a provision service, else 400 configuration_error', (_, e) => {
    expect(descriptionOf(e)).toMatch(/must have a provision service defined/);
    expect(descriptionOf(e)).toContain('400 configuration_error');
  });

  test.each([
    ['18', table.syncAddress],
    ['19', table.syncCustomerSubscriptions],
    ['20', table.getDistributionInformation],
  ])('endpoint %s says it needs an external subscription-system integration, else 400 configuration_error', (_, e) => {
    expect(descriptionOf(e)).toMatch(/external subscription-system integration/);
    expect(descriptionOf(e)).toContain('400 configuration_error');
  });

  test('endpoint 20 says it is supported only when the integration supports distribution information', () => {
    expect(descriptionOf(table.getDistributionInformation)).toMatch(
      /Supported only when .* supports distribution information/,
    );
  });

  test('no other operation says so', () => {
    const told = endpoints.filter((e) => /configuration_error/.test(descriptionOf(e) ?? ''));
    expect(told.map((e) => e.number)).toEqual([12, 13, 18, 19, 20]);
  });
});

describe('tags and names', () => {
  const client = new PlatformClient({
    environment: 'stage',
    hosts: { api: 'https://api.test', auth: 'https://auth.test', sso: 'https://sso.test', shop: 'https://shop.test' },
    auth: { accessToken: 'unused' },
  }) as unknown as Record<string, Record<string, unknown>>;
  const names = Object.entries(table).filter(([, v]) => endpoints.includes(v as Endpoint)) as [string, Endpoint][];
  /**
   * The SDK methods that reach their entry through the resource's own dispatch rather than by
   * naming it: the SSO operations are keyed by the method's name (`#operation('logout', ...)`,
   * which signs for the entry of that name), and the shop builds a URL (the entry is a page).
   */
  const INDIRECT: Readonly<Record<string, RegExp>> = {
    ssoCreateSession: /#operation\(["']createSession["']/,
    ssoSessionStatus: /#operation\(["']sessionStatus["']/,
    ssoAuthenticate: /#operation\(["']authenticate["']/,
    ssoLogout: /#operation\(["']logout["']/,
    marketplace: /marketplaceUrlOn\)?\(this\.#shopUrl/,
  };

  test.each(names)(
    '%s: the SDK call its entry names is a method of that PlatformClient resource, which sends it',
    (name, e) => {
      const [resource, method] = e.sdk.split('.') as [string, string];
      const fn = client[resource]?.[method];
      expect(typeof fn, `${name}: client.${e.sdk} is not a method`).toBe('function');
      const source = String(fn);
      const indirect = INDIRECT[name];
      if (indirect) expect(source).toMatch(indirect);
      else expect(source, `${name}: client.${e.sdk} does not name its entry`).toMatch(new RegExp(`\\b${name}\\b`));
    },
  );

  test('each operation is tagged with the SDK resource its entry names, so a generator\u2019s classes are the SDK\u2019s', () => {
    for (const e of endpoints) {
      const op = doc.paths[typeof e.path === 'string' ? e.path : e.path.stage]![e.method.toLowerCase()]!;
      expect(op.tags, e.title).toEqual([tagOf(e)]);
    }
    expect(new Set(operations.map((op) => op.tags[0]))).toEqual(new Set(doc.tags.map((t) => t.name)));
  });

  test('each tag\u2019s description is the PlatformClient property\u2019s TSDoc (mock/resource-descriptions.ts, generated)', () => {
    const source = readFileSync(new URL('../src/client.ts', import.meta.url), 'utf8');
    const tagged = new Set(endpoints.map(tagOf));
    // One line of TSDoc per resource, in the client's order; what a property needs (`Needs hosts.shop`) stays in the SDK.
    const documented = [...source.matchAll(/^ {2}\/\*\* (.+?)\. \*\/\n {2}readonly (\w+): [A-Z]\w+;$/gm)]
      .map((m) => [m[2]!, m[1]!.replace(/\. Needs .*$/, '')] as const)
      .filter(([name]) => tagged.has(name));
    const file = new URL('../mock/resource-descriptions.ts', import.meta.url);
    const expected = [
      "// Generated from the TSDoc of `PlatformClient`'s properties (src/client.ts) by",
      '// test/openapi-contract.test.ts: `UPDATE_GENERATED=1 npx vitest run test/openapi-contract.test.ts` rewrites it.',
      '',
      '/**',
      ' * What each SDK resource (a property of `PlatformClient`) is, as its TSDoc there says: the',
      " * description of its tag. An operation's tag is the resource its entry names (`sdk`), so a",
      " * generator's classes are the SDK's.",
      ' */',
      'export const RESOURCE_DESCRIPTIONS: Readonly<Record<string, string>> = {',
      ...documented.map(([name, text]) => `  ${name}: ${JSON.stringify(text)},`),
      '};',
      '',
    ].join('\n');
    const update = process.env.UPDATE_GENERATED === '1';
    if (update && readFileSync(file, 'utf8') !== expected) writeFileSync(file, expected);
    expect(
      readFileSync(file, 'utf8'),
      'mock/resource-descriptions.ts is stale: UPDATE_GENERATED=1 npx vitest run test/openapi-contract.test.ts',
    ).toBe(expected);
    expect(Object.keys(RESOURCE_DESCRIPTIONS).sort()).toEqual([...tagged].sort());
  });

  test('the resources are named schemas, with the SDK\u2019s names', () => {
    for (const name of [
      'Product',
      'PricePeriod',
      'PaymentPeriod',
      'HelpdeskMessage',
      'CancellationReason',
      'RetentionCampaignItem',
      'DocumentedUserProductV3',
      'ProductSharingOption',
      'Title',
      'ErrorBody',
      'AccessTokenResponse',
    ])
      expect(doc.components.schemas, name).toHaveProperty(name);
    const products = doc.paths['/external/api/v1/products']!.get!.responses['200']!.content!['application/json']!;
    expect(products.schema).toEqual({ $ref: '#/components/schemas/GetProductsResponse' });
    expect(doc.components.schemas.GetProductsResponse).toMatchObject({
      properties: { items: { items: { $ref: '#/components/schemas/Product' } } },
    });
  });
});

describe('servers', () => {
  /** Every server object of a document with what its URL uses and what it declares. */
  const serversOf = (d: Doc) => [
    ...d.servers,
    ...Object.values(d.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.servers ?? [])),
  ];

  test('the real platform\u2019s document declares no server variable its URL does not use, and says it is the real platform\u2019s', () => {
    for (const server of serversOf(doc)) {
      const used = [...server.url.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(Object.keys(server.variables ?? {})).toEqual(used);
    }
    expect(new Set(serversOf(doc).map((s) => s.url))).toEqual(
      new Set(['{base_url}', '{auth_api_url}', '{sso_url}', '{shop_url}']),
    );
    expect(doc.info.description).toMatch(/describes the real platform/);
  });

  test('a served document names its own URL for every operation, and says which platform it describes', () => {
    expect(serversOf(served).map((s) => s.url)).toEqual(['http://127.0.0.1:4010']);
    expect(served.info.description).toMatch(/reference platform .* at http:\/\/127\.0\.0\.1:4010/);
  });
});

test("each SSO operation names its request token's claims and the answer's, from the schemas the platform verifies with", () => {
  const names: Record<string, string> = {
    '/authenticatewithticket': 'SsoRequestClaims',
    '/identify': 'SsoIdentifyClaims',
    '/createsession': 'SsoCreateSessionClaims',
    '/sessionstatus': 'SsoSessionStatusClaims',
    '/authenticate': 'SsoAuthenticateClaims',
    '/logout': 'SsoLogoutClaims',
  };
  for (const [path, name] of Object.entries(names)) {
    const [method, op] = Object.entries(doc.paths[path]!)[0]!;
    const ref = `#/components/schemas/${name}`;
    expect(op['x-sso-claims'], path).toMatchObject({ request: { $ref: ref }, header: { alg: 'HS256', typ: 'JWT' } });
    const t =
      method === 'get'
        ? (op.parameters as { name: string; schema: Json }[]).find((p) => p.name === 't')!.schema
        : (op.requestBody!.content['application/json']!.schema.properties as Record<string, Json>).t!;
    expect(t, path).toMatchObject({ contentMediaType: 'application/jwt', contentSchema: { $ref: ref } });
    expect(t.description, path).toContain(name);
    expect(doc.components.schemas[name]).toMatchObject({ type: 'object' });
  }
  expect(doc.paths['/logout']!.post!['x-sso-claims']).toMatchObject({
    answer: { $ref: '#/components/schemas/SsoSessionClaims' },
  });
});

describe('the document refuses each body the platform refuses by its schema, and says the rules it cannot hold', () => {
  const h = useAdapter('http');
  const period = { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price: 9 };
  const prices = (periods: object[], code = 'PREMIUM-DIGITAL') => ({
    package_integration_code: code,
    price_periods: periods,
  });
  const psp = { type: 'card', name: 'Visa' };
  const entry = { account_id: demoUsers.anna.id, message: 'm', requested_by: 'r' };
  const account = { account_id: demoUsers.anna.id, product_id: 'd00000000000000000000005' };
  /** The body the operation of `e` takes, as the document has it. */
  const bodyOf = (e: Endpoint) =>
    doc.paths[pathOf(e, 'stage')]![e.method.toLowerCase()]!.requestBody!.content['application/json']!.schema;
  /** What the document says of `e`'s body in words: the operation's description and its named schemas'. */
  const wordsOf = (e: Endpoint) =>
    [
      doc.paths[pathOf(e, 'stage')]![e.method.toLowerCase()]!.description,
      ...Object.values(doc.components.schemas).map((schema) => String(schema.description ?? '')),
    ].join(' ');

  type Case = [string, Endpoint, unknown, { field: string; rule: 'schema' | RegExp }];
  const cases: Case[] = [
    [
      'psp without payment_option_details',
      table.updatePrices,
      prices([{ ...period, payment_option: 'psp' }]),
      { field: 'price_periods[0].payment_option_details', rule: 'schema' },
    ],
    [
      'creditcard with payment_option_details',
      table.updatePrices,
      prices([{ ...period, payment_option_details: psp }]),
      { field: 'price_periods[0].payment_option_details', rule: 'schema' },
    ],
    [
      'neither price nor details',
      table.updatePrices,
      prices([{ ...period, price: undefined }]),
      { field: 'price_periods[0].price', rule: 'schema' },
    ],
    [
      'a campaign without monthly_payments',
      table.updatePrices,
      prices([period], 'PREMIUM-SUMMER'),
      { field: 'price_periods[0].monthly_payments', rule: /campaign without monthly_payments/ },
    ],
    [
      'details in the simple price model',
      table.updatePrices,
      prices([{ ...period, details: [{ name: 'a', price: 1, vat_code: 6 }] }]),
      { field: 'price_periods[0].details', rule: /simple price model, a period with details/ },
    ],
    [
      'two periods with one payment option',
      table.updatePrices,
      prices([period, { ...period, type: 'year' }]),
      { field: 'price_periods[1].payment_option', rule: /At most one period per payment_option/ },
    ],
    [
      'a category that is not available',
      table.logToAccounts,
      { change_logs: [{ ...entry, category_type: 'no_such_category' }] },
      { field: 'change_logs[0].category_type', rule: /one of the organisation's available categories/ },
    ],
    ['neither retention id', table.subscribeToCampaign, {}, { field: 'user_product_id', rule: 'schema' }],
    [
      'both retention ids',
      table.subscribeToCampaign,
      { user_product_id: 'd00000000000000000000008', order_id: 'order-0008' },
      { field: 'order_id', rule: 'schema' },
    ],
    [
      'a user-product update without a change',
      table.updateUserProduct,
      account,
      { field: 'subscription_type', rule: 'schema' },
    ],
    [
      'details whose prices sum to over 1,000,000,000,000, each within it',
      table.updatePrices,
      prices([
        {
          ...period,
          price: undefined,
          details: [
            { name: 'a', price: 6e11, vat_code: 6 },
            { name: 'b', price: 6e11, vat_code: 6 },
          ],
        },
      ]),
      { field: 'price_periods[0].details', rule: /The prices of details sum to at most 1000000000000/ },
    ],
    [
      'a provisioning whose window ends before it starts',
      table.provisionUserProduct,
      {
        account_id: demoUsers.anna.id,
        package_code: 'premium-digital',
        subscription_type: 'recurring',
        valid_from: '2031-01-01T00:00:00Z',
        valid_to: '2030-01-01T00:00:00Z',
      },
      { field: 'valid_to', rule: /valid_to must be later than valid_from/ },
    ],
    [
      'a user-product update whose window ends before it starts',
      table.updateUserProduct,
      { ...account, valid_from: '2031-01-01T00:00:00Z', valid_to: '2030-01-01T00:00:00Z' },
      { field: 'valid_to', rule: /Given both, valid_to must be later than valid_from/ },
    ],
    ...['2025-01-01t00:00:00z', '2016-12-31T23:59:60Z', '2025-01-01 00:00:00Z'].map(
      (at): Case => [
        `valid_from ${at}`,
        table.updateUserProduct,
        { ...account, valid_from: at },
        { field: 'valid_from', rule: 'schema' },
      ],
    ),
  ];

  test.each(cases)(
    '%s: 400 invalid_parameter, refused by the document or said in its words',
    async (_, e, body, expected) => {
      const token = h.platform.mintToken({
        scopes: [...e.scopes, ...USER_SCOPES],
        ...(e.identity ? { accountId: demoUsers.anna.id } : {}),
      }).access_token;
      // Refused, it changes nothing.
      const answer = await expectUnchanged(h.platform, () =>
        h.call(pathOf(e, 'stage'), { method: e.method, json: body, token }),
      );
      expect({ status: answer.status, body: answer.body }).toMatchObject({
        status: 400,
        body: { code: 'invalid_parameter', field: expected.field },
      });
      const schema = bodyOf(e);
      if (expected.rule === 'schema') expect(validator(schema)(body)).toBe(false);
      else {
        // A rule of the state (the package, the organisation): no schema holds it, the words do.
        expect(validator(schema)(body)).toBe(true);
        expect(wordsOf(e)).toMatch(expected.rule);
      }
    },
  );

  test('what the platform takes, the document takes: a psp period with its details, a price, and each form of 7 and 12', () => {
    const body = prices([period, { ...period, payment_option: 'psp', payment_option_details: psp }]);
    expect(validator(bodyOf(table.updatePrices))(body)).toBe(true);
    expect(validator(bodyOf(table.subscribeToCampaign))({ order_id: 'order-0008' })).toBe(true);
    expect(validator(bodyOf(table.updateUserProduct))({ ...account, state: 'activated' })).toBe(true);
    expect(validator(bodyOf(table.updateUserProduct))({ ...account, valid_to: '2030-01-01T00:00:00+01:00' })).toBe(
      true,
    );
  });

  test('each schema built with exactlyOne, atMostOne or atLeastOne says its rule in JSON Schema too', () => {
    expect(doc.components.schemas.RetentionRequest).toMatchObject({
      oneOf: [{ required: ['user_product_id'] }, { required: ['order_id'] }],
    });
    // An anyOf as an allOf's member, so that a generator keeps the object's type (openapi-typescript
    // reads an anyOf beside the properties as `{ ... } | unknown`).
    expect(doc.components.schemas.UpdateUserProductRequest).toMatchObject({
      allOf: [{ anyOf: ['subscription_type', 'state', 'valid_from', 'valid_to'].map((k) => ({ required: [k] })) }],
    });
    const beside = Object.entries(doc.components.schemas).filter(([, schema]) => schema.properties && schema.anyOf);
    expect(beside.map(([name]) => name)).toEqual([]);
    // A query's parameters are listed one by one: its rule is in the operation's words.
    const products = doc.paths[pathOf(table.getProducts, 'stage')]!.get!;
    expect(products.description).toContain('At most one of id or product_code.');
  });

  test("endpoint 3 says that its parameter id is the spec samples' spelling of product_id, not given with it", () => {
    const op = doc.paths[pathOf(table.getPaymentPeriods, 'stage')]!.get! as Operation & {
      parameters: { name: string; description?: string }[];
    };
    const alias = op.parameters.find((p) => p.name === 'id');
    expect(alias?.description).toBe(
      "The spec's samples send product_id as id: an alias of product_id. Exactly one of product_id, id or product_code",
    );
  });
});

describe('headers and statuses', () => {
  const h = useAdapter('http');
  const headersOf = (response: { headers?: Json }) =>
    Object.fromEntries(
      Object.entries(response.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value as Json]),
    );

  test('every answer describes X-Correlation-Id; 401 and 403 of a bearer operation WWW-Authenticate; 503 Retry-After', () => {
    for (const e of endpoints) {
      const op = doc.paths[pathOf(e, 'stage')]![e.method.toLowerCase()]!;
      for (const [status, response] of Object.entries(op.responses)) {
        const named = headersOf(response as { headers?: Json });
        expect(named['x-correlation-id'], `${e.title} ${status}`).toEqual(RESPONSE_HEADERS['X-Correlation-Id']);
        if (e.bearer && (status === '401' || status === '403'))
          expect(named['www-authenticate'], `${e.title} ${status}`).toEqual(RESPONSE_HEADERS['WWW-Authenticate']);
      }
      expect(headersOf(op.responses['503'] as { headers?: Json })['retry-after'], e.title).toEqual(
        RESPONSE_HEADERS['Retry-After'],
      );
    }
    // Each answer's own copy, no $ref to follow (mock/openapi.ts, RESPONSE_HEADERS).
    expect([...schemaObjects(doc.paths)].filter((s) => String(s.$ref ?? '').includes('/headers/'))).toEqual([]);
  });

  test('an error answered in the common body alone is written once, in components.responses, each operation referring to it', () => {
    const raw = openApiDocument() as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
      components: { responses: Record<string, Json> };
    };
    const refs = new Set<string>();
    for (const ops of Object.values(raw.paths))
      for (const op of Object.values(ops))
        for (const [status, answer] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          const content = Object.keys((answer.content as Json | undefined) ?? {});
          // A page's own refusals are pages (text/html): those stay with their operation.
          if (answer.$ref === undefined) expect(content, status).toContain('text/html');
          else refs.add(String(answer.$ref));
        }
    expect([...refs].sort()).toEqual(
      Object.keys(raw.components.responses).map((name) => `#/components/responses/${name}`),
    );
    expect(raw.components.responses.Unauthorized?.headers).toHaveProperty('WWW-Authenticate');
    expect(raw.components.responses.UnauthorizedWithoutChallenge?.headers).not.toHaveProperty('WWW-Authenticate');
  });

  test('a 401, a 403 insufficient_scope and a 405 carry what the document says they carry', async () => {
    const op = doc.paths[pathOf(table.getProducts, 'stage')]!.get!;
    const path = pathOf(table.getProducts, 'stage');
    const refused = await h.call(path, { token: 'no-such-token' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer realm="platform", error="invalid_token"/);
    const narrow = await h.call(path, { token: h.platform.mintToken({ scopes: ['/external/title/r'] }).access_token });
    expect(narrow.status).toBe(403);
    expect(narrow.headers.get('www-authenticate')).toContain('scope="/external/product/r"');
    for (const answer of [refused, narrow]) {
      const documented = headersOf(op.responses[String(answer.status)] as { headers?: Json });
      for (const name of ['www-authenticate', 'x-correlation-id']) {
        expect(answer.headers.get(name), name).not.toBeNull();
        expect(documented[name], `${answer.status} ${name}`).toBeDefined();
      }
    }
    const words = RESPONSE_HEADERS['WWW-Authenticate'];
    expect(words.description).toContain('insufficient_scope');
    expect(words.description).toContain('scope="');
    // Another method on a served path: 405 with Allow, which info.description names.
    const other = await h.call(path, { method: 'DELETE', token: h.token() });
    expect(other.status).toBe(405);
    expect(other.headers.get('allow')).toBe('GET, HEAD');
    expect(doc.info.description).toMatch(/405 method_not_allowed \(.*Allow header/);
    expect(doc.info.description).toMatch(/503 busy \(.*Retry-After/);
  });

  test('503 (busy, with Retry-After) is a status of every operation', () => {
    for (const op of operations) expect(Object.keys(op.responses)).toContain('503');
  });
});

describe('the shop (endpoint 25)', () => {
  const h = useAdapter('http');
  const op = doc.paths[pathOf(table.marketplace, 'stage')]!.get!;
  const at = (op.parameters as { name: string; required: boolean; description?: string }[]).find(
    (p) => p.name === 'at',
  )!;

  test('the ticket `at` is optional, and its description says what the page does without it and with it', async () => {
    expect(at.required).toBe(false);
    expect(at.description).toMatch(/without it/);
    expect(at.description).toMatch(/303/);
    const path = pathOf(table.marketplace, 'stage')
      .replace('{groupId}', demoShop.groupId)
      .replace('{marketplaceId}', demoShop.marketplaceId);
    const page = await h.call(path, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(Object.keys(op.responses['200']!.content!)).toEqual(['text/html']);
    const ticketed = await h.call(path, { query: { at: 'not-a-ticket' }, headers: { accept: 'text/html' } });
    expect(ticketed.status).toBe(303);
  });
});

describe('operation ids', () => {
  test.each([
    ['Get signed-in user', 'getSignedInUser'],
    ["Get an account's active products", 'getAccountActiveProducts'],
    ['Get an account\u2019s active products', 'getAccountActiveProducts'],
    ['Send a user to the shop', 'sendUserToShop'],
    ['The title of a product', 'titleOfProduct'],
    ['Get me (v3)', 'getMeV3'],
  ])('%s is %s', (title, id) => {
    expect(operationIdOf(title)).toBe(id);
  });

  test('every id reads as words: no one-letter word (`getAnAccountSActiveProducts`), the shop opened', () => {
    const ids = operations.map((op) => op.operationId as string);
    expect(ids.filter((id) => !/^[a-z]+(?:[A-Z0-9][a-z0-9]*)*$/.test(id) || /[A-Z](?![a-z0-9])/.test(id))).toEqual([]);
    expect(ids).toContain('getAccountActiveProducts');
    expect(ids).toContain('openShop');
  });
});
