/**
 * The spec's endpoint table, read by both halves of the package: the SDK's resource methods
 * send what an entry says, and the reference platform routes, authorises and validates by it.
 * A path, a scope or a schema is written here once.
 */
import type * as z from 'zod';
import { IdResponse } from './schemas/common.js';
import {
  GetPaymentPeriodsQuery,
  GetPaymentPeriodsResponse,
  GetProductSharingQuery,
  GetProductSharingResponse,
  GetProductsQuery,
  GetProductsResponse,
  UpdatePricesRequest,
} from './schemas/products.js';

/** Which of the spec's four hosts an endpoint lives on. */
export type Host = 'api' | 'auth' | 'sso' | 'shop';
/** The environments of the spec: stage and production. */
export type Environment = 'stage' | 'production';
/** HTTP methods used by the spec. */
export type Method = 'GET' | 'POST' | 'PUT';

export interface Endpoint<
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  /** The spec's endpoint number. */
  readonly number: number;
  /** The spec's name for it. */
  readonly title: string;
  readonly method: Method;
  readonly host: Host;
  /** The path on stage, and on production where it differs (endpoint 10). */
  readonly path: string | Readonly<Record<Environment, string>>;
  /** Every scope the token must carry. */
  readonly scopes: readonly string[];
  /** Whether the token must be tied to a user (endpoints 6, 7, 24). */
  readonly identity: boolean;
  readonly query: Q;
  readonly body: B;
  readonly response: R;
  /** The status of a successful answer. */
  readonly status: number;
}

function endpoint<Q extends z.ZodType | undefined, B extends z.ZodType | undefined, R extends z.ZodType>(
  e: Endpoint<Q, B, R>,
): Endpoint<Q, B, R> {
  return e;
}

/** The path of an endpoint in an environment. */
export function pathOf(e: Endpoint, environment: Environment): string {
  return typeof e.path === 'string' ? e.path : e.path[environment];
}

export const updatePrices = endpoint({
  number: 1,
  title: 'Update prices',
  method: 'POST',
  host: 'api',
  path: '/external/api/v1/prices',
  scopes: ['/external/price/w'],
  identity: false,
  query: undefined,
  body: UpdatePricesRequest,
  response: IdResponse,
  status: 200,
});

export const getProducts = endpoint({
  number: 2,
  title: 'Get products',
  method: 'GET',
  host: 'api',
  path: '/external/api/v1/products',
  scopes: ['/external/product/r'],
  identity: false,
  query: GetProductsQuery,
  body: undefined,
  response: GetProductsResponse,
  status: 200,
});

export const getPaymentPeriods = endpoint({
  number: 3,
  title: 'Get payment periods',
  method: 'GET',
  host: 'api',
  path: '/external/api/v1/products/payment_periods',
  scopes: ['/external/product/r'],
  identity: false,
  query: GetPaymentPeriodsQuery,
  body: undefined,
  response: GetPaymentPeriodsResponse,
  status: 200,
});

export const getProductSharing = endpoint({
  number: 15,
  title: 'Get product sharing',
  method: 'GET',
  host: 'api',
  path: '/external/api/v1/products/get_product_sharing',
  scopes: ['/external/product/r'],
  identity: false,
  query: GetProductSharingQuery,
  body: undefined,
  response: GetProductSharingResponse,
  status: 200,
});
