/** Endpoints 2 (get products), 3 (get payment periods) and 15 (get product sharing). */
import { getPaymentPeriods, getProductSharing, getProducts } from '../../src/endpoints.js';
import {
  type PaymentPeriod,
  type PricePeriod,
  type Product,
  type ProductSharingOption,
  sumOfDetails,
} from '../../src/schemas/products.js';
import type { PricePeriodRecord, ProductRecord } from '../core/document.js';
import { notFound } from '../core/errors.js';
import { keptJsonIn, productJsonOf } from '../core/kept-json.js';
import { isActive, type PriceModel, priceModelOf } from '../core/products.js';
import { apiRoute, type Route } from '../core/route.js';

function pricePeriodView(pp: PricePeriodRecord, model: PriceModel): PricePeriod {
  const view: PricePeriod = {
    id: pp.id,
    purchase_type: pp.purchase_type,
    payment_option: pp.payment_option,
    type: pp.type,
    length: pp.length,
  };
  if (model === 'simple') view.price = pp.price ?? 0;
  else view.details = pp.details ?? [];
  return view;
}

/** A product as endpoint 2 shows it: the spec's fields only, `vat_code` in the simple model only. */
function productView(p: ProductRecord, model: PriceModel): Product {
  const view: Product = {
    id: p.id,
    created: p.created,
    updated: p.updated,
    product_code: p.product_code,
    valid_from: p.valid_from,
    valid_to: p.valid_to,
    is_package: p.is_package,
    is_campaign: p.is_campaign,
    parent_product_id: p.parent_product_id,
    parent_product_code: p.parent_product_code,
    title_code: p.title_code,
    name: p.name,
    description: p.description,
    customer_can_cancel: p.customer_can_cancel,
    products: p.products,
    price_periods: p.price_periods.map((pp) => pricePeriodView(pp, model)),
    tags: p.tags,
  };
  if (p.integration_code !== undefined) view.integration_code = p.integration_code;
  if (model === 'simple' && p.vat_code !== undefined) view.vat_code = p.vat_code;
  return view;
}

function paymentPeriodView(pp: PricePeriodRecord, model: PriceModel): PaymentPeriod {
  const view: PaymentPeriod = {
    id: pp.id,
    payment_method: pp.payment_option,
    type: pp.purchase_type,
    enabled: pp.enabled,
    iteration_type: pp.type,
    iteration_length: pp.length,
    price: model === 'complex' ? sumOfDetails(pp.details ?? []) : (pp.price ?? 0),
  };
  if (pp.payment_option === 'psp' && pp.payment_option_details)
    view.details = { name: pp.payment_option_details.name, type: pp.payment_option_details.type };
  return view;
}

/** The answer's header for a body serialized here. */
const JSON_TEXT = { 'content-type': 'application/json' } as const;

const TYPE_FILTERS = {
  packages: (p: ProductRecord) => p.is_package,
  campaigns: (p: ProductRecord) => p.is_campaign,
  products: (p: ProductRecord) => !p.is_package && !p.is_campaign,
} as const;

/** Endpoint 2: the caller's organisation's products, filtered. */
const listProducts = apiRoute(getProducts, ({ input: q, state, auth, clock }) => {
  const org = auth.client.organisation_id;
  const now = clock.nowMs();
  const includeInactive = q.include_inactive === true;
  let candidates: readonly ProductRecord[];
  if (q.id !== undefined) {
    const p = state.product(org, q.id);
    if (!p || (!includeInactive && !isActive(p, now))) throw notFound('id', 'Product not found');
    candidates = [p];
  } else if (q.product_code !== undefined) {
    const p = state.productByCode(org, q.product_code);
    if (!p || (!includeInactive && !isActive(p, now))) throw notFound('product_code', 'Product not found');
    candidates = [p];
  } else {
    candidates = state.productsOf(org);
  }
  const byType = q.product_type === undefined ? undefined : TYPE_FILTERS[q.product_type];
  // The spec's pattern separates names by a comma and/or white space (`news,premium`, `news premium`).
  const tags = q.tags === undefined ? [] : q.tags.split(/[\s,]+/).filter((t) => t.length > 0);
  const model = priceModelOf(state, org);
  // The answer is `{ items: Product[] }` (`GetProductsResponse`), written from each product's kept JSON.
  const kept = keptJsonIn(state);
  let items = '';
  for (const p of candidates) {
    if (!includeInactive && !isActive(p, now)) continue;
    if (byType && !byType(p)) continue;
    if (q.title_code !== undefined && p.title_code !== q.title_code) continue;
    if (tags.length > 0 && !tags.every((t) => p.tags.some((tag) => tag.name === t))) continue;
    items =
      items === ''
        ? productJsonOf(kept, p, model, productView)
        : `${items},${productJsonOf(kept, p, model, productView)}`;
  }
  return { text: `{"items":[${items}]}`, headers: JSON_TEXT };
});

/** Endpoint 3: the payment periods of a package or campaign, by `product_id` (alias `id`) or `product_code`. */
const paymentPeriods = apiRoute(getPaymentPeriods, ({ input: q, state, auth }) => {
  const org = auth.client.organisation_id;
  const byId = q.product_id ?? q.id;
  const p = byId !== undefined ? state.product(org, byId) : state.productByCode(org, q.product_code ?? '');
  if (!p || !(p.is_package || p.is_campaign)) {
    const field = q.product_id !== undefined ? 'product_id' : q.id !== undefined ? 'id' : 'product_code';
    throw notFound(field, 'Package or campaign not found');
  }
  const model = priceModelOf(state, org);
  return { body: { items: p.price_periods.map((pp) => paymentPeriodView(pp, model)) } };
});

/** Endpoint 15: a product's sharing option, by `id` or `code`; not shareable when none is recorded. */
const productSharing = apiRoute(getProductSharing, ({ input: q, state, auth }) => {
  const org = auth.client.organisation_id;
  const p = q.id !== undefined ? state.product(org, q.id) : state.productByCode(org, q.code ?? '');
  if (!p) throw notFound(q.id !== undefined ? 'id' : 'code', 'Product not found');
  const s = state.productSharing.get(p.id);
  const option: ProductSharingOption =
    s?.shareable === true
      ? {
          shareable: true,
          limit: s.limit,
          sharing_text: s.sharing_text,
          sharing_title: s.sharing_title,
          received_product_text: s.received_product_text,
          received_product_title: s.received_product_title,
        }
      : {
          shareable: false,
          limit: 0,
          sharing_text: null,
          sharing_title: null,
          received_product_text: null,
          received_product_title: null,
        };
  return { body: { item: [option] } };
});

/** The routes of this file. */
export const productRoutes: readonly Route[] = [listProducts, paymentPeriods, productSharing];
