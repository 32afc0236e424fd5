/** Every route of the reference platform, one file per resource. */
import type { Route } from '../core/route.js';
import { accountChangeLogRoutes } from './account-change-log.js';
import { adminRoutes } from './admin.js';
import { authorizationRoutes } from './authorization.js';
import { cancellationReasonRoutes } from './cancellation-reasons.js';
import { helpdeskRoutes } from './helpdesk.js';
import { meRoutes } from './me.js';
import { meRetentionRoutes } from './me-retention.js';
import { openApiRoutes } from './openapi.js';
import { orderRoutes } from './orders.js';
import { priceRoutes } from './prices.js';
import { productRoutes } from './products.js';
import { shopRoutes } from './shop.js';
import { ssoRoutes } from './sso.js';
import { subscriptionSystemRoutes } from './subscription-system.js';
import { subscriptionRoutes } from './subscriptions.js';
import { userProductRoutes } from './user-products.js';

/** The routes the platform serves (endpoints of the table without one answer 501). */
export const allRoutes: readonly Route[] = [
  ...priceRoutes,
  ...productRoutes,
  ...orderRoutes,
  ...userProductRoutes,
  ...subscriptionRoutes,
  ...subscriptionSystemRoutes,
  ...accountChangeLogRoutes,
  ...helpdeskRoutes,
  ...cancellationReasonRoutes,
  ...meRetentionRoutes,
  ...authorizationRoutes,
  ...meRoutes,
  ...ssoRoutes,
  ...shopRoutes,
  ...adminRoutes,
  ...openApiRoutes,
];
