/**
 * Every route of the reference platform, one file per resource: each route a file exports, alone
 * or in a list, is registered, so a new route in a file needs no edit here.
 */
import type { Route } from '../core/route.js';
import * as accountChangeLog from './account-change-log.js';
import * as accounts from './accounts.js';
import * as admin from './admin.js';
import * as authorization from './authorization.js';
import * as cancellationReasons from './cancellation-reasons.js';
import * as helpdesk from './helpdesk.js';
import * as me from './me.js';
import * as meRetention from './me-retention.js';
import * as openApi from './openapi.js';
import * as orders from './orders.js';
import * as prices from './prices.js';
import * as products from './products.js';
import * as shop from './shop.js';
import * as sso from './sso.js';
import * as subscriptionSystem from './subscription-system.js';
import * as subscriptions from './subscriptions.js';
import * as titles from './titles.js';
import * as userProducts from './user-products.js';

function isRoute(value: unknown): value is Route {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<Route>).method === 'string' &&
    typeof (value as Partial<Route>).handler === 'function'
  );
}

/** The routes a module exports, alone or in lists, in the order of its exports; each once. */
function routesOf(...modules: readonly Readonly<Record<string, unknown>>[]): readonly Route[] {
  const routes = new Set<Route>();
  for (const module of modules)
    for (const value of Object.values(module)) {
      if (isRoute(value)) routes.add(value);
      else if (Array.isArray(value) && value.length > 0 && value.every(isRoute)) for (const r of value) routes.add(r);
    }
  return [...routes];
}

/** The routes the platform serves (an entry of the table without one answers 501). */
export const allRoutes: readonly Route[] = routesOf(
  prices,
  products,
  orders,
  userProducts,
  subscriptions,
  subscriptionSystem,
  accountChangeLog,
  helpdesk,
  cancellationReasons,
  meRetention,
  authorization,
  me,
  accounts,
  titles,
  sso,
  shop,
  admin,
  openApi,
);
