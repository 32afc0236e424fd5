import type { APIPromise } from '../api-promise.js';
import { getPaymentPeriods, getProductSharing, getProducts } from '../endpoints.js';
import type { RequestOptions } from '../request.js';
import { id } from '../schemas/common.js';
import type {
  GetPaymentPeriodsQuery,
  GetPaymentPeriodsResponse,
  GetProductSharingQuery,
  GetProductSharingResponse,
  GetProductsQuery,
  GetProductsResponse,
} from '../schemas/products.js';
import { APIResource } from './resource.js';

/**
 * The query of {@link Products.paymentPeriods}: `product_id` or `product_code`, exactly one.
 * (The platform also takes `id` for `product_id`, as in the spec's samples; the SDK sends
 * `product_id`, which the spec names, even for a JavaScript caller's `id`.)
 */
export type PaymentPeriodsQuery = Exclude<GetPaymentPeriodsQuery, { id: string }>;

/**
 * `query` with the spec's samples' `id` spelled `product_id`, as the spec names the parameter: the
 * type leaves `id` out, but a JavaScript caller may follow the samples. One that breaks the id's
 * rule, or given beside `product_id`, is left for the query's check to refuse, naming `id`.
 */
function withProductId(query: PaymentPeriodsQuery): PaymentPeriodsQuery {
  if (typeof query !== 'object' || query === null || !Object.hasOwn(query, 'id') || Object.hasOwn(query, 'product_id'))
    return query;
  const { id: given, ...rest } = query as GetPaymentPeriodsQuery & { id?: string };
  if (!id.safeParse(given).success) return query;
  return { ...rest, product_id: given } as PaymentPeriodsQuery;
}

/** Products, packages and campaigns (spec endpoints 2, 3, 15). */
export class Products extends APIResource {
  /**
   * Get products (endpoint 2): packages, campaigns and products, filtered by the query; inactive
   * ones only with `include_inactive: true`. Scope `/external/product/r`.
   */
  list(query: GetProductsQuery = {}, options?: RequestOptions): APIPromise<GetProductsResponse> {
    return this._client.request(getProducts, query, options);
  }

  /**
   * Get payment periods (endpoint 3) of a package or campaign, by `product_id` or `product_code`.
   * 404 `not_found` when it is absent. Scope `/external/product/r`.
   */
  paymentPeriods(query: PaymentPeriodsQuery, options?: RequestOptions): APIPromise<GetPaymentPeriodsResponse> {
    return this._client.request(getPaymentPeriods, withProductId(query), options);
  }

  /**
   * Get product sharing (endpoint 15): the sharing options of a product, by `id` or `code`; the
   * options are an array under `item`. Scope `/external/product/r`.
   */
  sharing(query: GetProductSharingQuery, options?: RequestOptions): APIPromise<GetProductSharingResponse> {
    return this._client.request(getProductSharing, query, options);
  }
}
