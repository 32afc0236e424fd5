/** An account's active products, as the platform's public documentation shows the account API (beyond the spec). */
import * as z from 'zod';
import { id } from './common.js';
import { includeArticles } from './me.js';

/** Query of `GET /external/api/v1/accounts/active_products`. */
export const AccountActiveProductsQuery = z.strictObject({ account_id: id, include_articles: includeArticles });
/** Query of `GET /external/api/v1/accounts/active_products`. */
export type AccountActiveProductsQuery = z.input<typeof AccountActiveProductsQuery>;
