/**
 * The OpenAPI 3.1 document of the platform, generated from the endpoint table (`src/endpoints.ts`)
 * and its zod schemas (`z.toJSONSchema`): every entry, its scopes as security requirements, every
 * status it can answer (the entry's own `errors`, and those any request may get) with the common
 * error body (a page's own errors as pages), both spellings of endpoint 10's path, and endpoint 6's
 * GET body as it is. The build writes it to `openapi.json` (shipped in the package) and
 * `platform-mock` serves it at `/openapi.json`, so the document and the platform cannot drift.
 */
import * as z from 'zod';
// Only `version` is read; the build keeps only that of package.json (tsup.config.ts).
import pkg from '../package.json' with { type: 'json' };
import { accessToken, type Endpoint, type Environment, endpoints, type Host, pathOf } from '../src/endpoints.js';
import { ErrorBody } from '../src/schemas/common.js';

/** A JSON value of the document. */
type Json = Record<string, unknown>;

/** The spec's name for each host, as a server variable. */
const HOST_VARIABLES: Readonly<Record<Host, { name: string; description: string }>> = {
  api: { name: 'base_url', description: 'The external API ({base_url})' },
  auth: { name: 'auth_api_url', description: 'The authorization API ({auth_api_url})' },
  sso: { name: 'sso_url', description: 'The SSO session service ({sso_url})' },
  shop: { name: 'shop_url', description: 'The shop ({shop_url})' },
};

/** Options of {@link openApiDocument}. */
export interface OpenApiOptions {
  /** The document's `info.version`. Default: this package's version. */
  version?: string;
  /** The default URL of each host (server variables); the reference platform's `.test` hosts by default. */
  hosts?: Partial<Record<Host, string>>;
}

const DEFAULT_HOSTS: Readonly<Record<Host, string>> = {
  api: 'https://api.platform.test',
  auth: 'https://auth.platform.test',
  sso: 'https://sso.platform.test',
  shop: 'https://shop.platform.test',
};

/**
 * The error statuses any request to an endpoint may get from the platform's core, whatever its own
 * rules: a refused parameter, content type or JSON (400), a body over the size limit (413), an
 * unexpected failure (500), and with a bearer token a refused token (401) or a missing scope or
 * user (403). Always answered with the common error body, also for a page.
 */
export function commonErrorStatuses(e: Endpoint): number[] {
  const statuses = [400, 413, 500];
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
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Json;
  return rest;
}

function operationId(e: Endpoint, environment?: Environment): string {
  const words = e.title
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ');
  const id = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join('');
  return environment === 'production' ? `${id}Production` : id;
}

function parameters(e: Endpoint, path: string): Json[] {
  const out: Json[] = [];
  for (const m of path.matchAll(/\{(\w+)\}/g))
    out.push({ name: m[1], in: 'path', required: true, schema: { type: 'string', minLength: 1 } });
  if (!e.query) return out;
  const schema = jsonSchema(e.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    out.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: property });
  return out;
}

function operation(e: Endpoint, path: string, hosts: Record<Host, string>, environment?: Environment): Json {
  const variable = HOST_VARIABLES[e.host];
  const notes: string[] = [];
  if (e.identity) notes.push('The token must be tied to a user (a user token).');
  if (typeof e.path !== 'string' && environment)
    notes.push(
      `The ${environment} spelling of the path (stage: \`${e.path.stage}\`, production: \`${e.path.production}\`).`,
    );
  if (e.method === 'GET' && e.body)
    notes.push(
      'The parameters travel in a JSON body on this GET, as the spec says. Fetch cannot send it; node:http(s) can.',
    );
  const query = e.query ? (jsonSchema(e.query, 'input').description as string | undefined) : undefined;
  const body = e.body ? (jsonSchema(e.body, 'input').description as string | undefined) : undefined;
  for (const rule of [query, body]) if (rule) notes.push(`${rule}.`);
  const op: Json = {
    operationId: operationId(e, environment),
    summary: e.number === undefined ? `${e.title} (beyond the spec)` : `${e.number}. ${e.title}`,
    ...(notes.length ? { description: notes.join(' ') } : {}),
    servers: [
      {
        url: `{${variable.name}}`,
        description: variable.description,
        variables: { [variable.name]: { default: hosts[e.host] } },
      },
    ],
    security: e.bearer ? [{ platformToken: [...e.scopes] }] : [],
    ...(e.number === undefined ? { 'x-documented': e.documented } : { 'x-endpoint-number': e.number }),
    ...(environment ? { 'x-environments': [environment] } : {}),
  };
  const params = parameters(e, path);
  if (params.length) op.parameters = params;
  if (e.body) {
    const schema = jsonSchema(e.body, 'input');
    const content: Json = { 'application/json': { schema } };
    if (e.form) content['application/x-www-form-urlencoded'] = { schema };
    op.requestBody = { required: true, content };
  }
  const location = { location: { schema: { type: 'string' } } };
  const success =
    e.page && e.status >= 300
      ? { description: 'A redirect', headers: location }
      : e.page
        ? { description: 'An HTML page', content: { 'text/html': { schema: { type: 'string' } } } }
        : { description: 'Success', content: { 'application/json': { schema: jsonSchema(e.response, 'output') } } };
  const responses: Json = { [String(e.status)]: success };
  if (e.page && e.status === 200)
    responses['303'] = {
      description: 'A redirect to the same page without the ticket (`at`), so it leaves the address bar',
      headers: location,
    };
  const common = commonErrorStatuses(e);
  const own = e.errors ?? [];
  for (const status of [...new Set([...common, ...own])].sort((a, b) => a - b)) {
    const content: Json = {};
    if (common.includes(status) || !e.page)
      content['application/json'] = { schema: { $ref: '#/components/schemas/ErrorBody' } };
    // A page's own refusals are pages that say why.
    if (e.page && own.includes(status)) content['text/html'] = { schema: { type: 'string' } };
    responses[String(status)] = { description: ERROR_TEXT[status] ?? 'An error', content };
  }
  op.responses = responses;
  return op;
}

/** Every scope of the table, for the security scheme. */
function allScopes(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of endpoints) for (const s of e.scopes) out[s] = `Scope ${s}`;
  return out;
}

/** The OpenAPI 3.1 document of every endpoint in the table. */
export function openApiDocument(options: OpenApiOptions = {}): Record<string, unknown> {
  const hosts = { ...DEFAULT_HOSTS, ...options.hosts };
  const paths: Record<string, Json> = {};
  for (const e of endpoints) {
    const spellings: [string, Environment | undefined][] =
      typeof e.path === 'string'
        ? [[e.path, undefined]]
        : [
            [pathOf(e, 'stage'), 'stage'],
            [pathOf(e, 'production'), 'production'],
          ];
    for (const [path, environment] of spellings) {
      paths[path] ??= {};
      paths[path]![e.method.toLowerCase()] = operation(e, path, hosts, environment);
    }
  }
  const variables: Json = {};
  for (const host of Object.keys(HOST_VARIABLES) as Host[])
    variables[HOST_VARIABLES[host].name] = { default: hosts[host], description: HOST_VARIABLES[host].description };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Subscription platform: external API, authorization API, SSO and shop',
      version: options.version ?? pkg.version,
      description:
        'Generated from the endpoint table of subscription-platform-sdk. Each operation names its host as a server variable. The standalone server (platform-mock) may also refuse any request before it reaches an operation: 403 host_not_allowed (a Host it does not answer), 408, 431 and 400 malformed_request (at the HTTP level).',
    },
    servers: [{ url: `{${HOST_VARIABLES.api.name}}`, variables }],
    paths,
    components: {
      schemas: { ErrorBody: jsonSchema(ErrorBody, 'output') },
      securitySchemes: {
        platformToken: {
          type: 'oauth2',
          description: 'A bearer access token from the authorization API (endpoint 23).',
          flows: {
            clientCredentials: {
              tokenUrl: `${hosts.auth}${pathOf(accessToken, 'stage')}`,
              scopes: allScopes(),
            },
          },
        },
      },
    },
  };
}
