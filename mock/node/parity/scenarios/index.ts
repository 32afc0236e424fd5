/** Every parity scenario, in the order a run takes them. */
import type { Scenario } from '../scenario.js';
import { accountChangeLog } from './account-change-log.js';
import { accounts } from './accounts.js';
import { tickets, tokens } from './authorization.js';
import { cancellationReasons } from './cancellation-reasons.js';
import { helpdesk } from './helpdesk.js';
import { me } from './me.js';
import { meRetention } from './me-retention.js';
import { orders } from './orders.js';
import { prices } from './prices.js';
import { products } from './products.js';
import { requests } from './requests.js';
import { shop } from './shop.js';
import { sso } from './sso.js';
import { subscriptionSystem } from './subscription-system.js';
import { subscriptions } from './subscriptions.js';
import { titles } from './titles.js';
import { userProducts } from './user-products.js';

/** The scenarios of a parity run: one file per resource, named as the SDK's resources are. */
export const SCENARIOS: readonly Scenario[] = [
  tokens,
  requests,
  products,
  prices,
  accountChangeLog,
  subscriptions,
  userProducts,
  helpdesk,
  orders,
  cancellationReasons,
  subscriptionSystem,
  meRetention,
  accounts,
  titles,
  tickets,
  me,
  sso,
  shop,
];
