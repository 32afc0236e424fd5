/**
 * The OpenAPI 3.1 document of the platform, generated from the endpoint table (`src/endpoints.ts`)
 * and its zod schemas (`z.toJSONSchema`): every entry, tagged with the SDK resource that calls it,
 * its scopes as security requirements, every status it can answer (the entry's own `errors`, and
 * those any request may get) with the common error body (a page's own errors as pages), and
 * endpoint 6's GET body as it is. The resources, requests and answers of `src/schemas` are named
 * components, so a generator's models have the SDK's names.
 *
 * Two documents come from it. Without `server`, the real platform's: its four hosts as server
 * variables and both environments' spellings of endpoint 10; the build writes it to `openapi.json`
 * (shipped in the package). With `server`, one reference platform's: its own URL, its
 * environment's spelling of endpoint 10 and `/me` in the shape it answers; `platform-mock` serves
 * that one at `/openapi.json`, so the document and the platform cannot drift.
 */
import { RESOURCE_DESCRIPTIONS } from './resource-descriptions.js';

export { RESOURCE_DESCRIPTIONS };

import * as z from 'zod';
// Only `version` is read; the build keeps only that of package.json (tsup.config.ts).
import pkg from '../package.json' with { type: 'json' };
import {
  accessToken,
  authenticateWithTicket,
  type Endpoint,
  type Environment,
  endpoints,
  getDistributionInformation,
  getSignedInUser,
  type Host,
  marketplace,
  pathOf,
  provisionUserProduct,
  syncAddress,
  syncCustomerSubscriptions,
  updateUserProduct,
} from '../src/endpoints.js';
import * as schemas from '../src/schemas/index.js';
import { SsoSessionClaims } from '../src/schemas/sign-on.js';
import { SSO_CLOCK_TOLERANCE_SECONDS, ssoRequestClaims } from './core/sso.js';

/** A JSON value of the document. */
type Json = Record<string, unknown>;

/** What `GET /external/api/v1/me` answers: the spec's flat user, or the documented `{ item }`. */
export type MeShape = 'spec' | 'documented';

/** The spec's name for each host, as a server variable. */
const HOST_VARIABLES: Readonly<Record<Host, { name: string; description: string }>> = {
  api: { name: 'base_url', description: 'The external API ({base_url}) of your environment, stage or production' },
  auth: { name: 'auth_api_url', description: 'The authorization API ({auth_api_url}) of your environment' },
  sso: { name: 'sso_url', description: 'The SSO session service ({sso_url}) of your environment' },
  shop: { name: 'shop_url', description: 'The shop ({shop_url}) of your environment' },
};

/** The server one reference platform's document describes: where it is reached, and what it serves there. */
export interface DescribedServer {
  /** Its URL: the origin it was reached at (and, on a shared server, the prefix it serves under). */
  url: string;
  /** Which environment's paths it serves (endpoint 10's spelling). */
  environment: Environment;
  /** What its `GET /external/api/v1/me` answers. */
  meShape: MeShape;
}

/** Options of {@link openApiDocument}. */
export interface OpenApiOptions {
  /** The document's `info.version`. Default: this package's version. */
  version?: string;
  /**
   * The default of each host's server variable in the real platform's document; the reference
   * platform's `.test` hosts by default (the real hosts are the operator's to give).
   */
  hosts?: Partial<Record<Host, string>>;
  /** Describe this one reference platform instead of the real platform. */
  server?: DescribedServer;
}

const DEFAULT_HOSTS: Readonly<Record<Host, string>> = {
  api: 'https://api.platform.test',
  auth: 'https://auth.platform.test',
  sso: 'https://sso.platform.test',
  shop: 'https://shop.platform.test',
};

/** The tag of an entry: the SDK resource that sends it (`products` of `sdk: 'products.list'`). */
export function tagOf(e: Endpoint): string {
  const resource = e.sdk.slice(0, e.sdk.indexOf('.'));
  if (RESOURCE_DESCRIPTIONS[resource] === undefined)
    throw new Error(`${e.title}: its SDK resource ${resource} has no description in mock/openapi.ts`);
  return resource;
}

/**
 * The error statuses any request to an endpoint may get from the platform, whatever its own
 * rules: a refused parameter, content type or JSON (400), a body over the size limit (413), an
 * unexpected failure (500), a server answering as many requests as it takes at once (503, with
 * `Retry-After`), and with a bearer token a refused token (401) or a missing scope or user (403).
 * Always answered with the common error body, also for a page.
 */
export function commonErrorStatuses(e: Endpoint): number[] {
  const statuses = [400, 413, 500, 503];
  if (e.bearer) statuses.push(401);
  if (e.bearer && (e.scopes.length > 0 || e.identity)) statuses.push(403);
  return statuses.sort((a, b) => a - b);
}

const ERROR_TEXT: Readonly<Record<number, string>> = {
  400: 'A parameter was refused: invalid_parameter, unknown_parameter, json_parser_error, invalid_content_type_error, ...',
  401: 'The access token was refused (invalid_token), or the client credentials or the ticket (invalid_client, invalid_grant)',
  403: 'The token lacks a scope or a user (insufficient_scope, identity_required), or the record is not the caller\u2019s',
  404: 'A record the request names is absent (not_found, does_not_exist, account_not_found)',
  409: 'The record is not in a state that allows it, or the same work is under way (invalid_state, already_provisioned, sync_in_progress, ...)',
  413: 'The request body is over the platform\u2019s size limit (payload_too_large)',
  500: 'An unexpected failure (internal_server_error)',
  503: 'The server is answering as many requests, or holding as many request bodies, as it takes at once (busy), or a shared server has no room for another namespace (namespace_limit_reached): try again after Retry-After seconds',
};

/**
 * The response headers the document describes, each where the platform sends it: the correlation
 * id on every answer, the bearer challenge on 401 and 403, the wait on 503. `Allow` comes with a
 * 405, which no operation answers (the document lists every method served): `info.description`
 * names it. Written into each answer rather than as `$ref`s to `components/headers`: an error
 * answered in the common body is itself written once, in `components/responses`, so each header
 * is written once per shared answer rather than once per operation, and a reader of a header
 * has no reference to follow.
 */
export const RESPONSE_HEADERS: Readonly<Record<'X-Correlation-Id' | 'WWW-Authenticate' | 'Retry-After', Json>> = {
  'X-Correlation-Id': {
    description:
      'The id of this request at the platform, also the error body\u2019s api_correlation_id: quote it in a support request',
    schema: { type: 'string' },
  },
  'WWW-Authenticate': {
    description:
      'The bearer challenge (RFC 6750): `Bearer realm="platform"`, with `error="invalid_token"` and an `error_description` for a token refused (401; without them when no token was sent), or `error="insufficient_scope"` and `scope="<the scopes the operation needs, space-separated>"` for a token without them (403 insufficient_scope)',
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'How many seconds to wait before trying again',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** A header of {@link RESPONSE_HEADERS}, a copy of its own in each answer. */
function header(name: keyof typeof RESPONSE_HEADERS): Json {
  return structuredClone(RESPONSE_HEADERS[name]);
}

/** The headers of an answer with `status`, beside the correlation id every answer carries. */
function headersOf(status: number, bearer: boolean): Json {
  const headers: Json = { 'X-Correlation-Id': header('X-Correlation-Id') };
  if (bearer && (status === 401 || status === 403)) headers['WWW-Authenticate'] = header('WWW-Authenticate');
  if (status === 503) headers['Retry-After'] = header('Retry-After');
  return headers;
}

// ------------------------------------------------------------------ schemas

/** Where the document keeps its named schemas. */
const COMPONENTS = '#/components/schemas/';

/**
 * The named schemas: every schema `src/schemas` exports under a capitalised name (a resource, a
 * request, an answer, the SSO claims), by that name. Not a query (its parameters are listed one by
 * one) nor the SSO envelope `{ t }` (each operation says what its `t` carries).
 */
const NAMED: z.core.$ZodRegistry<{ id: string }> = (() => {
  const registry = z.registry<{ id: string }>();
  for (const [name, value] of Object.entries(schemas)) {
    if (!/^[A-Z]/.test(name) || name.endsWith('Query') || name === 'SsoEnvelope') continue;
    if (!(value instanceof z.ZodType)) continue;
    // Two exports of one schema would give it two names: a generator's model must have one.
    if (registry.has(value)) throw new Error(`${name} is ${registry.get(value)?.id} under another name`);
    registry.add(value, { id: name });
  }
  return registry;
})();

/**
 * A pattern of a case-insensitive regex (`/^[a-f\d]{24}$/i`) with each letter in both cases
 * (`^[a-fA-F\d]{24}$`): JSON Schema's patterns have no flags. Handles what the schemas write:
 * literals, escapes and classes with ranges; anything else it cannot rewrite is an error.
 */
export function caseInsensitivePattern(source: string): string {
  const other = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
  const isLetter = (c: string | undefined) => c !== undefined && /^[a-z]$/i.test(c);
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += c + (source[i + 1] ?? '');
      i++;
    } else if (inClass) {
      const to = source[i + 2];
      if (source[i + 1] === '-' && to !== undefined && to !== ']') {
        out += `${c}-${to}`;
        if (isLetter(c) && isLetter(to)) out += `${other(c)}-${other(to)}`;
        i += 2;
      } else out += isLetter(c) ? c + other(c) : c;
      if (source[i + 1] === ']') inClass = false;
    } else if (c === '[') {
      if (source[i + 1] === '^') throw new Error(`a negated class cannot be made case-insensitive: ${source}`);
      inClass = true;
      out += c;
    } else if (c === '(' && source[i + 1] === '?' && source[i + 2] === '<') {
      throw new Error(`a named group or lookbehind cannot be made case-insensitive: ${source}`);
    } else out += isLetter(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c;
  }
  return out;
}

/** The regexes with the `i` flag among a zod schema's checks. */
function caseInsensitiveChecks(schema: z.core.$ZodType): RegExp[] {
  const checks = (schema._zod.def as { checks?: z.core.$ZodCheck[] }).checks ?? [];
  return checks.flatMap((check) => {
    const pattern = (check._zod.def as { pattern?: unknown }).pattern;
    return pattern instanceof RegExp && pattern.flags.includes('i') ? [pattern] : [];
  });
}

/**
 * A date-time as the platform reads it (`dateTime`, zod's `z.iso.datetime({ offset: true })`): an
 * upper-case `T` and `Z`, seconds up to 59. `format: date-time` (RFC 3339) also takes a lower-case
 * `t` or `z`, a space for the `T` and a leap second (`:60`), which the platform refuses. Written
 * beside the format, short, with plain groups alone, for any generator's validator to run; the days
 * of each month are the format's to check.
 */
export const DATE_TIME_PATTERN =
  /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/**
 * What the document says of a schema beyond what zod writes with the document's registry (which
 * holds the names alone): the schema's own metadata (`.meta()`: a rule's sentence and keywords,
 * `withRule` of `src/schemas/common.ts`); a case-insensitive pattern in both cases; a date-time by
 * its `format` and {@link DATE_TIME_PATTERN} (zod's long `pattern` broke generators that map the
 * format to a date type; the SDK's check stays zod's); an answer open to fields the platform adds
 * later (the SDK drops them, it never fails on them), a request closed.
 */
function adjust(io: 'input' | 'output') {
  return ({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: z.core.JSONSchema.BaseSchema }) => {
    const { id: _, ...meta } = z.globalRegistry.get(zodSchema) ?? {};
    Object.assign(jsonSchema, meta);
    // An anyOf of `required` lists beside an object's properties, as an allOf's member: the same
    // rule, which openapi-typescript reads as a union with the object (`{ ... } | unknown`, any
    // value at all) and an allOf's member as an intersection (the object's type kept). Once: a
    // schema made from another (`.check()`) has its metadata, and zod writes the other's JSON first.
    if (jsonSchema.properties && jsonSchema.anyOf) {
      const rule = { anyOf: jsonSchema.anyOf };
      const allOf = jsonSchema.allOf ?? [];
      if (!allOf.some((member) => JSON.stringify(member) === JSON.stringify(rule))) jsonSchema.allOf = [...allOf, rule];
      delete jsonSchema.anyOf;
    }
    for (const regex of caseInsensitiveChecks(zodSchema)) {
      const rewrite = (j: z.core.JSONSchema.BaseSchema) => {
        if (j.pattern === regex.source) j.pattern = caseInsensitivePattern(regex.source);
      };
      rewrite(jsonSchema);
      for (const part of jsonSchema.allOf ?? []) if (typeof part === 'object') rewrite(part);
    }
    if (jsonSchema.format === 'date-time') jsonSchema.pattern = DATE_TIME_PATTERN.source;
    if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
  };
}

/** Rewrites every `$ref` of zod's `#/$defs/X` to the document's `#/components/schemas/X`. */
function toComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toComponents);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value))
    out[k] = k === '$ref' && typeof v === 'string' ? v.replace(/^#\/\$defs\//, COMPONENTS) : toComponents(v);
  return out;
}

/** The named schemas one document uses, as it finds them. */
class Components {
  readonly #schemas = new Map<string, { json: Json; text: string }>();
  readonly #responses = new Map<string, Json>();

  /**
   * A zod schema in the document: a `$ref` when it is named, its JSON Schema otherwise; the named
   * schemas it uses join the components. A name whose schema differs between two uses (a request's
   * and an answer's reading of one schema) is an error, not a silent choice.
   */
  schema(schema: z.ZodType, io: 'input' | 'output'): Json {
    const {
      $schema: _,
      $defs,
      ...rest
    } = z.toJSONSchema(schema, {
      io,
      metadata: NAMED,
      unrepresentable: 'any',
      target: 'draft-2020-12',
      override: adjust(io),
    }) as Json & { $defs?: Record<string, Json> };
    for (const [name, def] of Object.entries($defs ?? {})) {
      const json = toComponents(def) as Json;
      const text = JSON.stringify(json);
      const known = this.#schemas.get(name);
      if (known && known.text !== text) throw new Error(`${name} reads differently as a request and as an answer`);
      this.#schemas.set(name, { json, text });
    }
    return toComponents(rest) as Json;
  }

  /**
   * An answer shared by many operations (an error in the common body, with its headers), kept once
   * in `components/responses` under `name`: a `$ref` to it.
   */
  response(name: string, json: Json): Json {
    this.#responses.set(name, json);
    return { $ref: `#/components/responses/${name}` };
  }

  /** The shared answers, by name. */
  responses(): Record<string, Json> {
    return Object.fromEntries([...this.#responses].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** The components, by name. */
  all(): Record<string, Json> {
    const out: Record<string, Json> = {};
    for (const name of [...this.#schemas.keys()].sort()) out[name] = this.#schemas.get(name)!.json;
    for (const schema of Object.values(out)) addDiscriminator(schema, out);
    return out;
  }
}

/**
 * A `oneOf` of named objects that one required constant member tells apart (`grant_type` of the
 * token grants) gets its `discriminator`, with the mapping from each constant to its schema:
 * generators then pick the member by that value instead of trying each in turn.
 */
function addDiscriminator(schema: Json, all: Record<string, Json>): void {
  const refs = (schema.oneOf as Json[] | undefined)?.map((member) => member.$ref);
  if (!refs?.every((ref): ref is string => typeof ref === 'string')) return;
  const members = refs.map((ref) => all[ref.slice(COMPONENTS.length)] as Json | undefined);
  const first = members[0] as { properties?: Record<string, Json>; required?: string[] } | undefined;
  for (const property of first?.required ?? []) {
    const values = members.map((m) => {
      const member = m as { properties?: Record<string, Json>; required?: string[] } | undefined;
      return member?.required?.includes(property) ? member.properties?.[property]?.const : undefined;
    });
    if (!values.every((v): v is string => typeof v === 'string') || new Set(values).size !== values.length) continue;
    // `type: object` beside the `oneOf`: some readers (JSON::Validator) look for a discriminator only there.
    schema.type = 'object';
    schema.discriminator = {
      propertyName: property,
      mapping: Object.fromEntries(values.map((value, i) => [value, refs[i]])),
    };
    return;
  }
}

// ------------------------------------------------------------------ operations

/**
 * Operation ids that the spec's title would make misleading, as a generated client names its
 * function after the id: endpoint 23 grants every kind of token (client credentials, a ticket, a
 * refresh token), not only the ticket exchange of its title; endpoint 25 is a page a browser
 * opens, which sends no one anywhere by itself.
 */
const OPERATION_IDS: ReadonlyMap<Endpoint, string> = new Map<Endpoint, string>([
  [accessToken, 'requestAccessToken'],
  [marketplace, 'openShop'],
]);

function operationId(e: Endpoint, environment?: Environment): string {
  const id = OPERATION_IDS.get(e) ?? operationIdOf(e.title);
  return environment === 'production' ? `${id}Production` : id;
}

/** The words a title's operation id leaves out: the articles. */
const ARTICLES = new Set(['a', 'an', 'the']);

/**
 * A title's operation id, in camel case: `Get signed-in user` is `getSignedInUser`. A possessive
 * `'s` and the articles are left out, so that `Get an account's active products` is
 * `getAccountActiveProducts`, not `getAnAccountSActiveProducts`.
 * @internal
 */
export function operationIdOf(title: string): string {
  const words = title
    .replace(/['\u2019]s\b/gi, '')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => !ARTICLES.has(w.toLowerCase()));
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join('');
}

/**
 * An operation's parameters: each `{name}` of its path, described by the member of that name of the
 * entry's query or body schema when it has one (the SDK fills the path from it, the platform checks
 * it there), then the query's other members.
 */
function parameters(e: Endpoint, path: string, components: Components): Json[] {
  const input = e.query ?? e.body;
  // The query's members are listed one by one; a body's only for its path members, each read from
  // its own rule (the body as a whole may be a named schema, which would join the components unused).
  const schema = (e.query ? components.schema(e.query, 'input') : {}) as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  const members: Record<string, z.ZodType> = input instanceof z.ZodObject ? input.shape : {};
  // A page reads its query as `pageQuery` says (25: the shop's own redirect drops the ticket), so
  // that says which parameters it needs; their rules are the query's.
  const required = e.pageQuery
    ? ((z.toJSONSchema(e.pageQuery, { io: 'input', unrepresentable: 'any' }).required as string[] | undefined) ?? [])
    : (schema.required ?? []);
  const inPath = pathNames(path);
  const out: Json[] = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: members[name] ? components.schema(members[name], 'input') : { type: 'string', minLength: 1 },
  }));
  if (!e.query) return out;
  for (const [name, { description, ...property }] of Object.entries(schema.properties ?? {}))
    if (!inPath.includes(name))
      out.push({
        name,
        in: 'query',
        required: required.includes(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: property,
      });
  return out;
}

/** A body schema without the members its path carries (`{account_id}`): they are path parameters. */
function withoutPathMembers(body: z.ZodType, path: string): z.ZodType {
  if (!(body instanceof z.ZodObject)) return body;
  const names = pathNames(path).filter((name) => name in body.shape);
  if (names.length === 0) return body;
  // A new object of the other members (`.omit` refuses an object with refinements, which JSON
  // Schema cannot say anyway), as strict as the body was.
  const shape: Record<string, z.ZodType> = { ...body.shape };
  for (const name of names) delete shape[name];
  return body.def.catchall instanceof z.ZodNever ? z.strictObject(shape) : z.object(shape);
}

/** The `{name}` segments of a path template, by name. */
function pathNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** What a body the platform also takes form-urlencoded says of it. */
const FORM_TEXT =
  'JSON, or the same members form-urlencoded (application/x-www-form-urlencoded), as OAuth libraries send them. The document lists JSON alone, so that a generated client sends one encoding.';

/** The token endpoint, as prose points to it. */
const TOKEN_ENDPOINT = `POST ${pathOf(accessToken, 'stage')} (operation ${operationId(accessToken)})`;

/** What an operation asks of the caller, in words: the token, its scopes, a user. */
function authNotes(e: Endpoint): string[] {
  if (e.host === 'sso')
    return [
      e.method === 'GET'
        ? 'No bearer token: the query carries a request token `t` (a JWT, HS256, header `typ: JWT`) signed with the client secret.'
        : 'No bearer token: the body `{ t }` is a request token (a JWT, HS256, header `typ: JWT`) signed with the client secret; the answer `{ t }` is a session token signed with the same secret, errors included.',
    ];
  if (e === accessToken)
    return [
      'No bearer token: the client authenticates with client_id and client_secret in the body. The way to get an access token: grant_type=none with a space-separated scope for a server-to-server token; grant_type=ticket for a user token; grant_type=refresh_token to renew one.',
    ];
  if (!e.bearer) return ['No token: a browser is sent here.'];
  const notes: string[] = [];
  const scopes = e.scopes.map((s) => `\`${s}\``).join(' and ');
  notes.push(
    `Needs \`Authorization: Bearer <access token>\` from ${TOKEN_ENDPOINT}${e.scopes.length ? `, with the scope ${scopes}` : ''}.`,
  );
  if (e.identity)
    notes.push('Needs a user token: one tied to a user (the ticket grant, grant_type=ticket), marked x-user-token.');
  return notes;
}

/** The JWT claims an SSO operation's request token carries, and the answer's, as named schemas. */
function ssoClaims(e: Endpoint, components: Components): Json | undefined {
  const name = e.path as keyof typeof ssoRequestClaims;
  const request = ssoRequestClaims[name];
  if (!request) return undefined;
  return {
    request: components.schema(request, 'input'),
    ...(e.method === 'POST' ? { answer: components.schema(SsoSessionClaims, 'output') } : {}),
    header: { alg: 'HS256', typ: 'JWT' },
    leewaySeconds: SSO_CLOCK_TOLERANCE_SECONDS,
  };
}

/** The `{ t }` body of an SSO operation, its `t` saying which claims it carries. */
function ssoBody(claims: Json, io: 'request' | 'answer'): Json {
  const ref = (claims[io] as { $ref?: string } | undefined)?.$ref ?? '';
  const name = ref.slice(COMPONENTS.length);
  const what =
    io === 'request'
      ? `A request token: a JWT (HS256, header typ JWT) signed with the client secret, whose claims are ${name} (${ref}).`
      : `A session token: a JWT (HS256, header typ JWT) signed with the client secret, whose claims are ${name} (${ref}).`;
  return {
    type: 'object',
    properties: {
      t: {
        type: 'string',
        minLength: 1,
        description: what,
        contentMediaType: 'application/jwt',
        contentSchema: { $ref: ref },
      },
    },
    required: ['t'],
    ...(io === 'request' ? { additionalProperties: false } : {}),
  };
}

/** What an operation depends on beyond its entry: the hosts' variables, or the one server described. */
interface Context {
  readonly hosts: Readonly<Record<Host, string>>;
  readonly server: DescribedServer | undefined;
  readonly components: Components;
  /** The tag of an entry outside the table (a test's): the table's entries have their SDK resource's. */
  readonly tag?: string;
}

/**
 * What an operation needs of the caller's configuration at the operator, which no token or body
 * shows: refused `400 configuration_error` (field unspecified_field) before the body is judged (spec: Authentication
 * 4, endpoints 13 and 20; docs/assumptions.md for 12, 18 and 19).
 */
const PROVISION_SERVICE_NOTE =
  'The API client must have a provision service defined at the operator; a client without one is refused 400 configuration_error (field unspecified_field), whatever the body.';
const INTEGRATION_NOTE =
  "The caller's organisation must have an external subscription-system integration; without one, 400 configuration_error (field unspecified_field).";
const CONFIGURATION_NOTES: ReadonlyMap<Endpoint, string> = new Map<Endpoint, string>([
  [updateUserProduct, PROVISION_SERVICE_NOTE],
  [provisionUserProduct, PROVISION_SERVICE_NOTE],
  [syncAddress, INTEGRATION_NOTE],
  [syncCustomerSubscriptions, INTEGRATION_NOTE],
  [
    getDistributionInformation,
    "Supported only when the caller's organisation has an external subscription-system integration that supports distribution information; otherwise 400 configuration_error (field unspecified_field).",
  ],
]);

/** An operation's description, in sentences: its token, its path's spellings, its body, its rules. */
function operationNotes(
  e: Endpoint,
  ctx: Context,
  environment: Environment | undefined,
  claims: Json | undefined,
  documentedMe: boolean,
): string {
  const notes = authNotes(e);
  const configuration = CONFIGURATION_NOTES.get(e);
  if (configuration) notes.push(configuration);
  if (typeof e.path !== 'string' && environment)
    notes.push(
      ctx.server
        ? `The ${environment} spelling of the path, which this server serves (stage: \`${e.path.stage}\`, production: \`${e.path.production}\`).`
        : `The ${environment} spelling of the path (stage: \`${e.path.stage}\`, production: \`${e.path.production}\`).`,
    );
  if (e.method === 'GET' && e.body)
    notes.push(
      'The parameters travel in a JSON body on this GET, as the spec says. Fetch cannot send it; node:http(s) can, framed by Content-Length or Transfer-Encoding: chunked.',
    );
  for (const input of [e.query, e.body]) {
    const rule = input
      ? (z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }).description as string | undefined)
      : undefined;
    if (rule) notes.push(`${rule}.`);
  }
  if (claims) notes.push('The claims of its tokens are in x-sso-claims, and in docs/sso-protocol.md.');
  if (e === authenticateWithTicket || e === accessToken)
    notes.push(
      e === accessToken
        ? 'A ticket is used once: presented again to the ticket grant, it is refused (401 invalid_grant) and the access and refresh tokens its first exchange issued are revoked (RFC 6749, 10.5). Keep the first answer; never send a ticket twice.'
        : 'A ticket is used once: presented again, it is invalid_ticket and what its first use did is undone: the session it logged in is terminated and the ticket that answer carried in at is used up (RFC 6749, 10.5). Keep the first answer; never send a ticket twice.',
    );
  if (e === getSignedInUser)
    notes.push(
      documentedMe
        ? 'This server answers the shape of the platform\u2019s public documentation (`{ item }`, platform-mock --me-shape documented).'
        : 'The spec\u2019s flat user; the platform\u2019s public documentation shows `{ item }` in snake_case instead (platform-mock --me-shape documented).',
    );
  return notes.join(' ');
}

/** The reason phrase of each error status (RFC 9110) in one word, for the shared answers' names. */
const ERROR_NAMES: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'ContentTooLarge',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
};

/** The name of the shared error answer with `status` (in `components/responses`), with or without the bearer challenge. */
function errorResponseName(status: number, challenge: boolean): string {
  const reason = ERROR_NAMES[status] ?? `Error${status}`;
  return (status === 401 || status === 403) && !challenge ? `${reason}WithoutChallenge` : reason;
}

/** An operation's answers: its success (JSON, a page or a redirect), and every error status it can meet. */
function responsesOf(e: Endpoint, components: Components, claims: Json | undefined, documentedMe: boolean): Json {
  const location = {
    location: { description: 'Where the browser goes', schema: { type: 'string' } },
    ...headersOf(303, false),
  };
  const answer = documentedMe ? schemas.DocumentedMeResponse : e.response;
  const success =
    e.page && e.status >= 300
      ? { description: 'A redirect', headers: location }
      : e.page
        ? {
            description: e.pageQuery
              ? 'The page: without the ticket (`at`), what the browser\u2019s session shows'
              : 'An HTML page',
            headers: headersOf(e.status, false),
            content: { 'text/html': { schema: { type: 'string' } } },
          }
        : {
            description: 'Success',
            headers: headersOf(e.status, false),
            content: {
              'application/json': { schema: claims ? ssoBody(claims, 'answer') : components.schema(answer, 'output') },
            },
          };
  const responses: Json = { [String(e.status)]: success };
  if (e.page && e.status === 200)
    responses['303'] = {
      description:
        'A redirect to the same page without the ticket (`at`), so it leaves the address bar: the answer to any `at`, a valid one signing the user into the shop first',
      headers: location,
    };
  const common = commonErrorStatuses(e);
  const own = e.errors ?? [];
  const error = components.schema(schemas.ErrorBody, 'output');
  for (const status of [...new Set([...common, ...own])].sort((a, b) => a - b)) {
    const content: Json = {};
    if (common.includes(status) || !e.page) content['application/json'] = { schema: error };
    // A page's own refusals are pages that say why.
    if (e.page && own.includes(status)) content['text/html'] = { schema: { type: 'string' } };
    const challenge = e.bearer && common.includes(status);
    const answer = { description: ERROR_TEXT[status] ?? 'An error', headers: headersOf(status, challenge), content };
    // An error in the common body alone is the same answer on every operation: written once.
    const shared = Object.keys(content).length === 1 && content['application/json'] !== undefined;
    responses[String(status)] = shared ? components.response(errorResponseName(status, challenge), answer) : answer;
  }
  return responses;
}

/** An entry's operation at one of its paths: its id, words, security, parameters, body and answers. */
function describeOperation(e: Endpoint, path: string, ctx: Context, environment?: Environment): Json {
  const { components, server } = ctx;
  const claims = e.host === 'sso' ? ssoClaims(e, components) : undefined;
  const documentedMe = e === getSignedInUser && server?.meShape === 'documented';
  const op: Json = {
    operationId: operationId(e, environment),
    summary: e.number === undefined ? `${e.title} (beyond the spec)` : `${e.number}. ${e.title}`,
    description: operationNotes(e, ctx, environment, claims, documentedMe),
    tags: [ctx.tag ?? tagOf(e)],
    // The scopes in the requirement (OpenAPI 3.1 allows them for any scheme), and in x-scopes as before.
    security: e.bearer ? [{ platformToken: [...e.scopes] }] : [],
    ...(e.bearer ? { 'x-scopes': [...e.scopes] } : {}),
    ...(e.bearer ? { 'x-user-token': e.identity } : {}),
    ...(e.number === undefined ? { 'x-documented': e.documented } : { 'x-endpoint-number': e.number }),
    ...(environment && !server ? { 'x-environments': [environment] } : {}),
    ...(claims ? { 'x-sso-claims': claims } : {}),
  };
  // The real platform's hosts: the external API is the document's server; each other host its own.
  if (!server && e.host !== 'api') {
    const variable = HOST_VARIABLES[e.host];
    op.servers = [
      {
        url: `{${variable.name}}`,
        description: variable.description,
        variables: { [variable.name]: { default: ctx.hosts[e.host], description: variable.description } },
      },
    ];
  }
  const params = parameters(e, path, components);
  // Identify's request token travels in the query.
  const token = claims && params.find((p) => p.name === 't' && p.in === 'query');
  if (claims && token) {
    // The query's own bound stays (a URL carries at most so much): the body's `t` has none.
    const { maxLength } = token.schema as { maxLength?: number };
    const t = (ssoBody(claims, 'request').properties as Record<string, Json>).t;
    token.schema = maxLength === undefined ? t : { ...t, maxLength };
  }
  if (params.length) op.parameters = params;
  if (e.body) {
    const schema = claims ? ssoBody(claims, 'request') : components.schema(withoutPathMembers(e.body, path), 'input');
    // One content type: generators given two for one schema fill in both (openapi-python-client
    // sent `json=` and `data=`). The form the platform also takes is said in words.
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema } },
      ...(e.form ? { description: FORM_TEXT } : {}),
    };
  }
  op.responses = responsesOf(e, components, claims, documentedMe);
  return op;
}

/** The paths of an entry the document lists, each with its environment when the spellings differ. */
function spellings(e: Endpoint, server: DescribedServer | undefined): [string, Environment | undefined][] {
  if (typeof e.path === 'string') return [[e.path, undefined]];
  if (server) return [[pathOf(e, server.environment), server.environment]];
  return [
    [pathOf(e, 'stage'), 'stage'],
    [pathOf(e, 'production'), 'production'],
  ];
}

const TOKEN_TEXT =
  'A bearer access token from the authorization API. Server to server: POST {auth_api_url}/api/authorization/access_token with grant_type=none, client_id, client_secret and a space-separated scope (JSON or form-urlencoded), answered with access_token, expires_in and the scopes granted. For a user (operations marked x-user-token): the ticket grant, grant_type=ticket. Each operation lists the scopes its token must carry in its security requirement, in x-scopes and in its description.';

/**
 * One entry's operation at `path`, tagged `tag`, as the real platform's document describes it, and
 * the named schemas it uses: for a test of an entry the table does not hold (a path parameter's).
 * @internal
 */
export function operationOf(
  e: Endpoint,
  tag: string,
  path = pathOf(e, 'stage'),
): { operation: Json; schemas: Record<string, Json> } {
  const components = new Components();
  const operation = describeOperation(e, path, { hosts: DEFAULT_HOSTS, server: undefined, components, tag });
  return { operation, schemas: components.all() };
}

/** The OpenAPI 3.1 document of every endpoint in the table: the real platform's, or one reference platform's (`server`). */
export function openApiDocument(options: OpenApiOptions = {}): Record<string, unknown> {
  const { server } = options;
  const hosts = { ...DEFAULT_HOSTS, ...options.hosts };
  const components = new Components();
  const ctx: Context = { hosts, server, components };
  const paths: Record<string, Json> = {};
  for (const e of endpoints) {
    for (const [path, environment] of spellings(e, server)) {
      paths[path] ??= {};
      paths[path]![e.method.toLowerCase()] = describeOperation(e, path, ctx, environment);
    }
  }
  const api = HOST_VARIABLES.api;
  const description = server
    ? `This document describes one reference platform (platform-mock of subscription-platform-sdk), at ${server.url}: it serves the external API, the authorization API, the SSO service and the shop on that one URL, the ${server.environment} environment's paths, and GET /external/api/v1/me in the ${server.meShape === 'spec' ? 'spec\u2019s' : 'documented'} shape. The real platform's document ships in the package as openapi.json.`
    : 'This document describes the real platform, generated from the endpoint table of subscription-platform-sdk: its four hosts are server variables ({base_url} for the external API, and each other operation names its own), both environments\u2019 spellings of endpoint 10 are listed (x-environments). The reference platform (platform-mock) serves a document of its own at /openapi.json.';
  return {
    openapi: '3.1.0',
    info: {
      title: 'Subscription platform: external API, authorization API, SSO and shop',
      version: options.version ?? pkg.version,
      description: `${description} A server may also refuse any request before it reaches an operation: 403 host_not_allowed (a Host it does not answer), 405 method_not_allowed (a method the path does not serve; its Allow header lists those it does, HEAD with each GET), 408, 417 expectation_failed (an Expect other than 100-continue), 431 and 400 malformed_request (at the HTTP level), and 503 busy (as many requests being answered, or bytes of request bodies held, as it takes at once; Retry-After says when to try again, as on every operation's 503); a shared server's namespace (/_ns/{name}/...) 400 invalid_parameter naming namespace, 403 namespace_not_open (a new namespace on a server with an admin token, without the token) and 503 namespace_limit_reached. Every answer carries X-Correlation-Id. Answers may carry fields this document does not list: read them leniently.`,
      license: { name: 'MIT', identifier: 'MIT' },
      contact: {
        name: 'subscription-platform-sdk',
        url: 'https://github.com/subscription-platform-sdk/subscription-platform-sdk',
      },
    },
    servers: server
      ? [{ url: server.url, description: 'This reference platform: every host of the spec on one URL' }]
      : [
          {
            url: `{${api.name}}`,
            description: api.description,
            variables: { [api.name]: { default: hosts.api, description: api.description } },
          },
        ],
    tags: Object.entries(RESOURCE_DESCRIPTIONS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: components.all(),
      responses: components.responses(),
      securitySchemes: {
        platformToken: { type: 'http', scheme: 'bearer', description: TOKEN_TEXT },
      },
    },
  };
}
