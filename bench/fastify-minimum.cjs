/**
 * The throughput bench's reference of the least work the spec asks of its two cases, on Fastify:
 * get products (endpoint 2) and update prices (endpoint 1), for one client whose bearer token is
 * known. Each request is authenticated (the token looked up, its scope checked), its query or body
 * checked against a JSON schema as Fastify compiles it (Ajv), its products selected or changed in
 * memory (each product's JSON kept, as the platform keeps it, and written anew on a write), and
 * journaled (the last 1,000 requests kept), with a correlation id. Nothing else: no host check, no
 * connection limits, no namespaces, no faults, no redaction, no admin API.
 *
 * Started by `bench/throughput.ts` with `node bench/fastify-minimum.cjs`; it reads `TOKEN` (the
 * client's token), `SCOPES` (its scopes, space-separated), `PRODUCTS` (the products' JSON, as the
 * platform answers get products) and `ANSWERS` (the headers the platform sets), and prints its URL.
 */
'use strict';
const { randomUUID } = require('node:crypto');
const fastify = require('fastify');

const tokens = new Map([[process.env.TOKEN, new Set(process.env.SCOPES.split(' '))]]);
const headers = JSON.parse(process.env.ANSWERS).GET.headers;
/** Each product, and its JSON as answered. */
const products = JSON.parse(process.env.PRODUCTS).items.map((p) => ({ ...p, json: JSON.stringify(p) }));
const byIntegrationCode = new Map(products.map((p) => [p.integration_code, p]));
const TYPES = {
  packages: (p) => p.is_package,
  campaigns: (p) => p.is_campaign,
  products: (p) => !p.is_package && !p.is_campaign,
};

/** The last 1,000 requests, oldest first. */
const journal = [];
function journaled(request, status) {
  journal.push({
    method: request.method,
    url: request.url,
    headers: request.headers,
    status,
    received_at: Date.now(),
    correlation_id: randomUUID(),
  });
  if (journal.length > 1000) journal.shift();
  return journal.at(-1).correlation_id;
}

function answer(request, reply, status, body) {
  reply.code(status).headers(headers).header('x-correlation-id', journaled(request, status)).send(body);
}

/** The caller's scopes, or an answer already sent: 401 without a known bearer token, 403 without `scope`. */
function authorized(request, reply, scope) {
  const header = request.headers.authorization;
  const scopes = header?.startsWith('Bearer ') ? tokens.get(header.slice(7)) : undefined;
  if (scopes === undefined) answer(request, reply, 401, '{"code":"invalid_token","message":"Invalid token"}');
  else if (!scopes.has(scope))
    answer(request, reply, 403, '{"code":"insufficient_scope","message":"The token lacks the scope"}');
  else return true;
  return false;
}

const code = { type: 'string', minLength: 1, maxLength: 50 };
const app = fastify({ logger: false });
app.get(
  '/external/api/v1/products',
  {
    schema: {
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: '^[0-9a-f]{24}$' },
          product_code: code,
          product_type: { enum: Object.keys(TYPES) },
          title_code: { type: 'string', minLength: 1, maxLength: 15 },
          tags: { type: 'string', minLength: 1, maxLength: 100 },
          include_inactive: { enum: ['true', 'false'] },
        },
      },
    },
  },
  (request, reply) => {
    if (!authorized(request, reply, '/external/product/r')) return;
    const q = request.query;
    const type = q.product_type === undefined ? undefined : TYPES[q.product_type];
    const now = Date.now();
    let items = '';
    for (const p of products) {
      if (q.include_inactive !== 'true' && !(Date.parse(p.valid_from) <= now && now <= Date.parse(p.valid_to)))
        continue;
      if (type && !type(p)) continue;
      if (q.title_code !== undefined && p.title_code !== q.title_code) continue;
      items = items === '' ? p.json : `${items},${p.json}`;
    }
    answer(request, reply, 200, `{"items":[${items}]}`);
  },
);

const period = {
  type: 'object',
  additionalProperties: false,
  required: ['subscription_type', 'payment_option', 'type', 'length'],
  properties: {
    subscription_type: { enum: ['recurring', 'limited'] },
    payment_option: { enum: ['creditcard', 'invoice', 'psp', 'direct_debit'] },
    type: { enum: ['day', 'week', 'month', 'year'] },
    length: { type: 'integer', minimum: 1, maximum: 100 },
    price: { type: 'number', minimum: 0 },
  },
};
app.post(
  '/external/api/v1/prices',
  {
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['package_integration_code', 'price_periods'],
        properties: {
          package_integration_code: code,
          price_periods: { type: 'array', minItems: 1, maxItems: 50, items: period },
        },
      },
    },
  },
  (request, reply) => {
    if (!authorized(request, reply, '/external/price/w')) return;
    const { package_integration_code: integrationCode, price_periods: given } = request.body;
    const product = byIntegrationCode.get(integrationCode);
    if (product === undefined || !product.is_package) {
      answer(request, reply, 404, '{"code":"not_found","field":"package_integration_code"}');
      return;
    }
    const periods = [...product.price_periods];
    for (const p of given) {
      const at = periods.findIndex(
        (q) =>
          q.purchase_type === p.subscription_type &&
          q.payment_option === p.payment_option &&
          q.type === p.type &&
          q.length === p.length,
      );
      const changed = { ...periods[at], purchase_type: p.subscription_type, ...p };
      delete changed.subscription_type;
      if (at < 0) periods.push(changed);
      else periods[at] = changed;
    }
    product.price_periods = periods;
    const { json: _, ...shown } = product;
    product.json = JSON.stringify(shown);
    answer(request, reply, 200, JSON.stringify({ id: product.id }));
  },
);

app.listen({ port: 0, host: '127.0.0.1' }).then((url) => console.log(url));
