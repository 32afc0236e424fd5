/** Every route of the reference platform, one file per resource. */
import type { Route } from '../core/route.js';
import { adminRoutes } from './admin.js';
import { authorizationRoutes } from './authorization.js';
import { meRoutes } from './me.js';
import { orderRoutes } from './orders.js';
import { priceRoutes } from './prices.js';
import { productRoutes } from './products.js';
import { shopRoutes } from './shop.js';
import { ssoRoutes } from './sso.js';

/** The routes the platform serves (endpoints of the table without one answer 501). */
export const allRoutes: readonly Route[] = [
  ...priceRoutes,
  ...productRoutes,
  ...orderRoutes,
  ...authorizationRoutes,
  ...meRoutes,
  ...ssoRoutes,
  ...shopRoutes,
  ...adminRoutes,
];
