/**
 * Requests drawn from the endpoint table itself (`src/endpoints.ts`), for the property-based fuzz
 * suite: valid inputs derived from each entry's zod schemas (through `z.toJSONSchema`), then, most
 * of the time, one thing broken: a required key dropped, an unknown or prototype key added, a
 * value of the wrong type, a huge or deeply nested value, an odd encoding, a wrong content type, a
 * missing or wrong token. Every entry gets its share of the cases, so a new endpoint is fuzzed as
 * soon as it enters the table.
 */
import fc from 'fast-check';
import * as z from 'zod';
import { bodyLimitFor } from '../../mock/core/limits.js';
import { demoIds, demoShop, demoSite, demoSiteB, demoUsers } from '../../mock/index.js';
import {
  authenticateWithTicket,
  type Endpoint,
  endpoints,
  pathOf,
  ssoAuthenticate,
  ssoCreateSession,
  ssoIdentify,
  ssoLogout,
  ssoSessionStatus,
} from '../../src/endpoints.js';
import {
  SsoAuthenticateClaims,
  SsoCreateSessionClaims,
  SsoIdentifyClaims,
  SsoLogoutClaims,
  SsoRequestClaims,
  SsoSessionStatusClaims,
} from '../../src/schemas/sign-on.js';

/** A JSON Schema, as `z.toJSONSchema` writes it (the parts read here). */
interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
}

/** How fast-check shows a request in a failure: method, target, body and what was done, not the whole table entry. */
function show(this: FuzzRequest): string {
  return `${this.method} ${this.target}${this.body === undefined ? '' : ` ${this.body.slice(0, 300)}`} [${this.mutation}; token ${this.token}]`;
}

/** One drawn request. */
export interface FuzzRequest {
  readonly endpoint: Endpoint;
  readonly method: string;
  /** Path and query, as sent. */
  readonly target: string;
  /** The body text, if any. */
  readonly body?: string;
  readonly contentType?: string;
  /** Which token: one with the endpoint's scopes (and a user when it needs one), none, or one without the scopes. */
  readonly token: 'scoped' | 'none' | 'unscoped';
  /** What was done to the valid input (for the campaign's counts and a failure's message). */
  readonly mutation: string;
  /** The refusal this request must get, when one is certain (a body over the limit). */
  readonly expected?: { readonly status: number; readonly code: string };
  /** For the SSO service: the request token to sign when the request is sent (`{ t }`, or `?t=` for identify). */
  readonly sso?: SsoToken;
}

/** A client that signs SSO request tokens: the demo site, or the second site of its organisation. */
export interface SsoClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly organisationId: string;
}

/**
 * An SSO request token, signed when it is sent (on the platform's clock, with a session or a
 * ticket made just before): the operation's claims, by whom, and what is broken in it, if anything.
 * `sid` {@link NEW_SESSION} and `at` {@link NEW_TICKET} stand for a fresh session and ticket.
 */
export interface SsoToken {
  readonly client: SsoClient;
  /** The operation's own claims, without the registered ones (`cid`, `iss`, `aud`, `iat`, `nbf`, `exp`). */
  readonly claims: Readonly<Record<string, unknown>>;
  /** The one thing broken (a claim left out or of a wrong value, a wrong signature or lifetime), or `none`. */
  readonly fault: SsoFault;
  /** The longest lifetime the operation accepts, in seconds. */
  readonly lifetime: number;
  /** The return URL of identify (`r`). */
  readonly returnUrl?: string;
}

/** What is broken in an SSO request token. */
export type SsoFault =
  | { readonly kind: 'none' }
  | { readonly kind: 'omit'; readonly claim: string }
  | { readonly kind: 'wrong'; readonly claim: string; readonly value: unknown }
  | {
      readonly kind: 'secret' | 'alg none' | 'HS512' | 'expired' | 'not yet valid' | 'issued ahead' | 'lives too long';
    };

/** The `sid` claim of a session created just before the request. */
export const NEW_SESSION = '<new session>';
/** The `at` claim of a ticket issued just before the request. */
export const NEW_TICKET = '<new ticket>';

/** The SSO operations, each with the claims its request token carries and how long it may live. */
const SSO_OPERATIONS = new Map<Endpoint, { claims: z.ZodObject; lifetime: number }>([
  [authenticateWithTicket, { claims: SsoRequestClaims, lifetime: 10 }],
  [ssoIdentify, { claims: SsoIdentifyClaims, lifetime: 60 }],
  [ssoCreateSession, { claims: SsoCreateSessionClaims, lifetime: 10 }],
  [ssoSessionStatus, { claims: SsoSessionStatusClaims, lifetime: 10 }],
  [ssoAuthenticate, { claims: SsoAuthenticateClaims, lifetime: 10 }],
  [ssoLogout, { claims: SsoLogoutClaims, lifetime: 10 }],
]);

/** The claims every request token carries, set when it is signed. */
export const REGISTERED_CLAIMS: readonly string[] = ['cid', 'iss', 'aud', 'iat', 'nbf', 'exp'];

const SSO_CLIENTS: readonly SsoClient[] = [demoSite, { ...demoSiteB, organisationId: demoSite.organisationId }];

/** A claim value the schema accepts: most often a real one (a session, a ticket, Anna's login). */
function claimValue(name: string, schema: z.ZodType): fc.Arbitrary<unknown> {
  const anyText = fc.string({ minLength: 1, maxLength: 40 });
  switch (name) {
    case 'sid':
      return fc.oneof({ arbitrary: fc.constant(NEW_SESSION), weight: 4 }, { arbitrary: anyText, weight: 1 });
    case 'at':
      return fc.oneof({ arbitrary: fc.constant(NEW_TICKET), weight: 3 }, { arbitrary: anyText, weight: 1 });
    case 'usr':
      return fc.oneof(fc.constantFrom(demoUsers.anna.email, demoUsers.anna.email.toUpperCase()), anyText);
    case 'pwd':
      return fc.oneof(fc.constant(demoUsers.anna.password), anyText);
    case 'ipa':
      return fc.oneof(fc.constantFrom('203.0.113.9', '2001:db8::1'), anyText);
    default: {
      const json = schemaOf(schema);
      return json.enum
        ? fc.constantFrom(...json.enum)
        : fc.oneof(fc.constantFrom('News', '15.0', 'Mozilla/5.0'), anyText);
    }
  }
}

/** Values no claim accepts in place of `name`'s. */
function wrongValues(name: string): unknown[] {
  const common = [42, null, '', 'x'.repeat(1025), ['a']];
  switch (name) {
    case 'iat':
    case 'nbf':
    case 'exp':
      return ['1700000000', -1, 1.5, null];
    case 'iss':
      return [...common, demoIds.organisations.complex];
    case 'aud':
      return [...common, 'sso.elsewhere.test'];
    case 'cid':
      return [...common, 'demo-shop', 'no-such-client'];
    case 'lks':
      return [...common, 'frozen'];
    default:
      return common;
  }
}

/**
 * The requests of an SSO operation: a validly signed request token (a real session, a real
 * ticket, Anna's password a share of the time), or one with each claim broken in turn (left out,
 * of a wrong type, too long, naming another issuer, audience or client) or its signature or
 * lifetime broken. Each broken token must be refused as `invalid_request_token`, each whole one
 * must pass verification.
 */
export function ssoRequestsOf(e: Endpoint): fc.Arbitrary<FuzzRequest> {
  const operation = operationOf(e);
  const names = ownClaims(operation);
  const claims = fc.record(
    Object.fromEntries(names.map((n) => [n, claimValue(n, operation.claims.shape[n] as z.ZodType)])),
  );
  const every = [...REGISTERED_CLAIMS, ...names];
  const fault: fc.Arbitrary<SsoFault> = fc.oneof(
    { arbitrary: fc.constant<SsoFault>({ kind: 'none' }), weight: 3 },
    { arbitrary: fc.constantFrom(...every).map((claim): SsoFault => ({ kind: 'omit', claim })), weight: 1 },
    {
      arbitrary: fc
        .constantFrom(...every)
        .chain((claim) =>
          fc
            .constantFrom(...wrongValuesOf(operation, claim))
            .map((value): SsoFault => ({ kind: 'wrong', claim, value })),
        ),
      weight: 2,
    },
    { arbitrary: fc.constantFrom(...TOKEN_FAULTS), weight: 1 },
  );
  const returnUrl = fc.constantFrom('http://localhost:3000/', 'http://localhost:3000/article?id=1');
  return fc
    .tuple(
      claims,
      fault,
      fc.constantFrom(...SSO_CLIENTS),
      returnUrl,
      fc.constantFrom<'stage' | 'production'>('stage', 'production'),
    )
    .map(([drawn, broken, client, r, environment]) =>
      ssoRequestOf(e, environment, {
        client,
        claims: drawn,
        fault: broken,
        lifetime: operation.lifetime,
        returnUrl: r,
      }),
    );
}

/** Faults of the token as a whole: its signature, its algorithm, its lifetime. */
const TOKEN_FAULTS: readonly SsoFault[] = [
  { kind: 'secret' },
  { kind: 'alg none' },
  { kind: 'HS512' },
  { kind: 'expired' },
  { kind: 'not yet valid' },
  { kind: 'issued ahead' },
  { kind: 'lives too long' },
];

function operationOf(e: Endpoint): { claims: z.ZodObject; lifetime: number } {
  const operation = SSO_OPERATIONS.get(e);
  if (!operation) throw new Error(`${e.title} is not an SSO operation`);
  return operation;
}

/** The claims of an operation besides the registered ones. */
function ownClaims(operation: { claims: z.ZodObject }): string[] {
  return Object.keys(operation.claims.shape).filter((n) => !REGISTERED_CLAIMS.includes(n));
}

/** Wrong values of `claim` for this operation: of its own claims, those its schema refuses (endpoint 21 sets no longest `sid`). */
function wrongValuesOf(operation: { claims: z.ZodObject }, claim: string): unknown[] {
  const own = operation.claims.shape[claim] as z.ZodType | undefined;
  return wrongValues(claim).filter((v) => REGISTERED_CLAIMS.includes(claim) || !own?.safeParse(v).success);
}

function ssoRequestOf(e: Endpoint, environment: 'stage' | 'production', sso: SsoToken): FuzzRequest {
  const body = e.method === 'GET' ? {} : { body: '', contentType: 'application/json' };
  // Named first: fast-check's show method is not a field of the type.
  const request = {
    endpoint: e,
    method: e.method,
    target: pathOf(e, environment),
    ...body,
    token: 'none' as const,
    mutation: `sso ${faultName(sso.fault)}`,
    sso,
    [fc.toStringMethod]: show,
  };
  return request;
}

/**
 * Every way to break an SSO operation's request token, one at a time: each claim left out, each
 * claim with each wrong value, and each fault of the token as a whole.
 */
export function ssoFaultsOf(e: Endpoint): SsoFault[] {
  const operation = operationOf(e);
  const every = [...REGISTERED_CLAIMS, ...ownClaims(operation)];
  return [
    ...every.map((claim): SsoFault => ({ kind: 'omit', claim })),
    ...every.flatMap((claim) =>
      wrongValuesOf(operation, claim).map((value): SsoFault => ({ kind: 'wrong', claim, value })),
    ),
    ...TOKEN_FAULTS,
  ];
}

/**
 * One request of an SSO operation signed by the demo site: whole claims (a new session, a new
 * ticket, Anna's e-mail and password, a device) with `fault`.
 */
export function ssoRequest(e: Endpoint, fault: SsoFault): FuzzRequest {
  const operation = operationOf(e);
  const whole: Record<string, unknown> = {
    sid: NEW_SESSION,
    at: NEW_TICKET,
    usr: demoUsers.anna.email,
    pwd: demoUsers.anna.password,
    ipa: '203.0.113.9',
    uas: 'Mozilla/5.0 fuzz',
    lks: 'anon',
  };
  const claims = Object.fromEntries(ownClaims(operation).map((n) => [n, whole[n] ?? 'News']));
  return ssoRequestOf(e, 'stage', {
    client: demoSite,
    claims,
    fault,
    lifetime: operation.lifetime,
    returnUrl: 'http://localhost:3000/',
  });
}

/** A fault as the campaign's counts and a failure's message name it. */
export function faultName(fault: SsoFault): string {
  if (fault.kind === 'none') return 'valid token';
  if (fault.kind === 'omit') return `without ${fault.claim}`;
  if (fault.kind === 'wrong') return `${fault.claim} ${JSON.stringify(fault.value)?.slice(0, 20)}`;
  return fault.kind;
}

/** Whether an endpoint is one of the SSO service's operations, whose requests carry a signed token. */
export function isSsoOperation(e: Endpoint): boolean {
  return SSO_OPERATIONS.has(e);
}

/** The SSO service's operations (endpoint 21 and those beyond the spec). */
export const ssoOperations: readonly Endpoint[] = [...SSO_OPERATIONS.keys()];

/** Ids the demo seed knows, so that some requests reach real records. */
const KNOWN_IDS: readonly string[] = [
  ...Object.values(demoIds.accounts),
  ...Object.values(demoIds.userProducts),
  ...Object.values(demoIds.products),
  ...Object.values(demoIds.periods),
  'order-0001',
  'premium-digital',
  'basic-news',
  'premium-summer',
  'demo-site',
  'demo-shop',
];

const text = fc.oneof(
  fc.constantFrom(...KNOWN_IDS),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    '',
    ' ',
    'true',
    '0',
    '-1',
    '1e309',
    'null',
    '2030-01-01T00:00:00Z',
    'a@example.com',
    '\u0000',
    '\ud800',
  ),
);

function schemaOf(zod: z.ZodType): Schema {
  return z.toJSONSchema(zod, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Schema;
}

/** Values a schema accepts (or nearly: patterns and cross-field rules are not followed). */
function accepted(s: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  // An object's members are followed, not its rules across them (`anyOf`/`oneOf`/`allOf` of
  // `required` lists, `if`/`then`): those alternatives carry no members of their own.
  if (s.properties) return objectOf(s, depth);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => accepted(a, depth)));
  if (s.allOf?.length) return accepted(s.allOf[0]!, depth);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      if (s.format === 'date-time') return fc.constantFrom('2030-01-01T00:00:00Z', '2020-02-29T12:00:00.000Z');
      if (s.format === 'email' || s.format === 'idn-email')
        return fc.constantFrom('anna@example.com', 'new@example.com', 'åsa@exempel.se');
      return fc.oneof(text, fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 20, 20) }));
    case 'integer':
      return fc.integer({ min: Math.max(s.minimum ?? -10, -1e6), max: Math.min(s.maximum ?? 1e6, 1e6) });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(accepted(s.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object':
      return objectOf(s, depth);
    default:
      return fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null));
  }
}

/** Objects a schema of an object accepts: its required members, and some of the others. */
function objectOf(s: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  if (depth > 3 || !s.properties) return fc.constant({});
  const required = new Set(s.required ?? []);
  const entries = Object.entries(s.properties);
  return fc.record(Object.fromEntries(entries.map(([k, v]) => [k, accepted(v, depth + 1)])), {
    requiredKeys: entries.map(([k]) => k).filter((k) => required.has(k)),
  });
}

/** A deeply nested array: `levels` deep. */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** A record with one thing broken, or none; answers the record and what was done. */
function mutate(
  valid: fc.Arbitrary<Record<string, unknown>>,
  schema: Schema,
): fc.Arbitrary<[Record<string, unknown>, string]> {
  const keys = Object.keys(schema.properties ?? {});
  const required = schema.required ?? [];
  const options: fc.Arbitrary<[Record<string, unknown>, string]>[] = [
    valid.map((v) => [v, 'valid']),
    fc
      .tuple(valid, fc.constantFrom('__proto__', 'constructor', 'prototype', 'unknown_key', 'toString'), text)
      .map(([v, k, x]) => [{ ...v, [k]: x }, `extra key ${k}`]),
    fc
      .tuple(valid, fc.constantFrom<unknown>(42, -1, 1.5, true, null, [], {}, 'text', [1, 'a'], { a: { b: [] } }))
      .chain(([v, wrong]) =>
        keys.length
          ? fc
              .constantFrom(...keys)
              .map((k): [Record<string, unknown>, string] => [{ ...v, [k]: wrong }, `wrong type for ${k}`])
          : fc.constant<[Record<string, unknown>, string]>([v, 'valid']),
      ),
    fc
      .tuple(valid, fc.constantFrom(1025, 5000, 100_000))
      .chain(([v, n]) =>
        keys.length
          ? fc
              .constantFrom(...keys)
              .map((k): [Record<string, unknown>, string] => [{ ...v, [k]: 'x'.repeat(n) }, `huge ${k}`])
          : fc.constant<[Record<string, unknown>, string]>([v, 'valid']),
      ),
  ];
  if (required.length)
    options.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([v, k]) => {
        const { [k]: _, ...rest } = v;
        return [rest, `without ${k}`];
      }),
    );
  return fc.oneof(...options);
}

/** Percent-encoding; a lone surrogate (not UTF-16 text) is sent as the bytes of one: invalid UTF-8. */
function encode(x: string): string {
  try {
    return encodeURIComponent(x);
  } catch {
    return `${encodeURIComponent(x.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`;
  }
}

/** Query text of a record: repeated keys for arrays, odd encodings sometimes. */
function queryOf(record: Record<string, unknown>, encoding: 'plain' | 'escaped' | 'repeated'): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(record)) {
    const name = encoding === 'escaped' ? encode(k).replace(/_/g, '%5F') : encode(k);
    const values = Array.isArray(v) ? v : [v];
    for (const x of values) parts.push(`${name}=${encode(typeof x === 'string' ? x : JSON.stringify(x))}`);
    if (encoding === 'repeated' && values.length === 1) parts.push(parts.at(-1)!);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/**
 * The requests of one endpoint: for an SSO operation, a signed request token most of the time
 * ({@link ssoRequestsOf}), else requests drawn from its schemas.
 */
export function requestsOf(e: Endpoint): fc.Arbitrary<FuzzRequest> {
  if (isSsoOperation(e))
    return fc.oneof({ arbitrary: ssoRequestsOf(e), weight: 3 }, { arbitrary: drawnRequestsOf(e), weight: 1 });
  return drawnRequestsOf(e);
}

/** A path member no schema draws: the demo's own value (the shop's marketplace), so a share of requests gets past the router. */
const KNOWN_PATH_VALUES: Readonly<Record<string, string>> = {
  groupId: demoShop.groupId,
  marketplaceId: demoShop.marketplaceId,
};

/**
 * A path with its `{name}` segments filled: most of the time as the SDK fills them, from the drawn
 * input's member of that name (taken out of the input, which is changed), or the demo's own value
 * for a member no schema has; otherwise with any text, the input left as it is (a client that
 * sends the member in the query too).
 */
function filledPath(path: string, input: Record<string, unknown>, asTheSdk: boolean, any: { a: string; b: string }) {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (asTheSdk && input[name] !== undefined) {
      const value = input[name];
      delete input[name];
      return encode(typeof value === 'string' ? value : JSON.stringify(value));
    }
    const known = KNOWN_PATH_VALUES[name];
    if (asTheSdk && known !== undefined) return encode(known);
    return encode(name.length % 2 ? any.a : any.b);
  });
}

/** The requests of one endpoint drawn from its schemas, one thing broken most of the time. */
function drawnRequestsOf(e: Endpoint): fc.Arbitrary<FuzzRequest> {
  const querySchema = e.query ? schemaOf(e.query) : undefined;
  const bodySchema = e.body ? schemaOf(e.body) : undefined;
  const pathParams = fc.record({ a: text, b: text });
  const input = (s: Schema | undefined) =>
    s
      ? mutate(accepted(s) as fc.Arbitrary<Record<string, unknown>>, s.anyOf?.[0] ?? s)
      : fc.constant<[Record<string, unknown>, string]>([{}, 'valid']);
  const token = fc.constantFrom<FuzzRequest['token']>('scoped', 'scoped', 'scoped', 'scoped', 'none', 'unscoped');
  return fc
    .tuple(
      input(querySchema),
      input(bodySchema),
      pathParams,
      fc.constantFrom<'plain' | 'escaped' | 'repeated'>('plain', 'plain', 'escaped', 'repeated'),
      fc.constantFrom('json', 'json', 'json', 'form', 'text', 'broken', 'deep'),
      token,
      fc.constantFrom<'stage' | 'production'>('stage', 'production'),
      fc.constantFrom(true, true, true, false),
    )
    .map(([[drawnQuery, qm], [drawnBody, bm], params, encoding, bodyKind, tok, environment, asTheSdk]) => {
      const query = { ...drawnQuery };
      const body = { ...drawnBody };
      const path = filledPath(pathOf(e, environment), bodySchema ? body : query, asTheSdk, params);
      const target = `${path}${queryOf(query, encoding)}`;
      const mutation = [querySchema ? `query ${qm}` : '', bodySchema ? `body ${bm} (${bodyKind})` : '']
        .filter(Boolean)
        .join(', ');
      if (!bodySchema)
        return {
          endpoint: e,
          method: e.method,
          target,
          token: tok,
          mutation: mutation || 'valid',
          [fc.toStringMethod]: show,
        };
      let text: string;
      let contentType = 'application/json';
      switch (bodyKind) {
        case 'form':
          contentType = 'application/x-www-form-urlencoded';
          text = queryOf(body, encoding).slice(1);
          break;
        case 'text':
          contentType = 'text/plain';
          text = JSON.stringify(body);
          break;
        case 'broken':
          text = JSON.stringify(body).slice(0, -1);
          break;
        case 'deep':
          text = `{"a":${nested(200)}}`;
          break;
        default:
          text = JSON.stringify(body).replace(/"client_secret"/g, '"client\\u005fsecret"');
      }
      return {
        endpoint: e,
        method: e.method,
        target,
        body: text,
        contentType,
        token: tok,
        mutation,
        [fc.toStringMethod]: show,
      };
    });
}

/** The platform's default body limit (1 MiB), which the fuzzed platforms keep. */
const BODY_LIMIT = 1024 * 1024;

/**
 * Requests over the body limit, on any endpoint of `from` (a GET of the table too, with a body):
 * a valid body with one huge value beyond 1 MiB, of one-byte or two-byte characters, through
 * every content type. Each must get `413 payload_too_large` and change nothing.
 */
export function oversizedRequestsOf(from: readonly Endpoint[]): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      fc.constantFrom(...from),
      fc.integer({ min: 1, max: BODY_LIMIT }),
      fc.constantFrom('x', 'é', '€'),
      fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain'),
      fc.constantFrom<FuzzRequest['token']>('scoped', 'none'),
    )
    .map(([endpoint, over, char, contentType, token]) => {
      const bytes = new TextEncoder().encode(char).length;
      // Endpoint 4's own limit is higher: its largest valid batch is over 1 MiB.
      const limit = bodyLimitFor(BODY_LIMIT, endpoint.method, pathOf(endpoint, 'stage'));
      const value = char.repeat(Math.ceil((limit + over) / bytes));
      const body =
        contentType === 'application/x-www-form-urlencoded'
          ? `grant_type=none&huge=${value}`
          : JSON.stringify({ grant_type: 'none', huge: value });
      return {
        endpoint,
        method: endpoint.method,
        target: pathOf(endpoint, 'stage').replace(/\{\w+\}/g, 'x'),
        body,
        contentType,
        token,
        mutation: `body over the limit by at least ${over} bytes ('${char}')`,
        expected: { status: 413, code: 'payload_too_large' },
        [fc.toStringMethod]: show,
      };
    });
}

/** Every entry of the table. */
export const fuzzedEndpoints: readonly Endpoint[] = endpoints;
