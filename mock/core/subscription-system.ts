/**
 * The external subscription system of an organisation, simulated (endpoints 17 to 20): what it
 * knows of a customer, how an address is compared, and how a sync makes the platform's
 * user-products match it.
 */
import { compareInstants } from '../../src/instants.js';
import type {
  AccountRecord,
  ExternalAddressRecord,
  ExternalCustomerRecord,
  ProductRecord,
  SubscriptionSystemRecord,
  UserProductRecord,
} from './document.js';
import {
  COLLECTIONS,
  ExternalCustomer,
  type ExternalCustomerInput,
  externalCustomerCount,
  MAX_EXTERNAL_CUSTOMERS,
  SYSTEM_CAPS,
} from './document.js';
import { HttpError, notFound } from './errors.js';
import { idKey, sameId } from './ids.js';
import type { State } from './state.js';
import type { SubscriptionSystems } from './types.js';
import { addUserProduct } from './user-products.js';
import { validate } from './validate.js';

/** The organisation's external subscription system, or `400 configuration_error` when it has none. */
export function systemOf(state: State, organisationId: string): SubscriptionSystemRecord {
  const system = state.subscriptionSystems.get(organisationId);
  if (!system)
    throw new HttpError(400, 'configuration_error', 'The organisation has no external subscription system integration');
  return system;
}

/** The external system's customer with this number, or undefined. */
function customerOf(system: SubscriptionSystemRecord, customerNumber: string): ExternalCustomerRecord | undefined {
  return system.customers.find((c) => c.customer_number === customerNumber);
}

/** The account of the organisation with this customer number, or `404 not_found` (field `customer_number`). */
export function accountByCustomerNumber(state: State, organisationId: string, customerNumber: string): AccountRecord {
  const account = state.accounts.find('customerNumber', organisationId, customerNumber);
  if (!account) throw notFound('customer_number', 'No account with that customer number');
  return account;
}

/** The external system's customer of an account, or `404 not_found` when it does not know the customer. */
export function externalCustomer(system: SubscriptionSystemRecord, customerNumber: string): ExternalCustomerRecord {
  const customer = customerOf(system, customerNumber);
  if (!customer) throw notFound('customer_number', 'The external subscription system does not know that customer');
  return customer;
}

/**
 * An address field as compared for a gift receiver: letter case, spaces at the ends and runs of
 * spaces do not count; a zip code also ignores every space (`111 22` is `11122`).
 */
function normalized(value: string, zip = false): string {
  const folded = value.trim().toLowerCase().replace(/\s+/g, ' ');
  return zip ? folded.replace(/ /g, '') : folded;
}

/** Whether two addresses are the same delivery point: street, number, zip code, city and country (not the names). */
export function sameAddress(a: ExternalAddressRecord, b: ExternalAddressRecord): boolean {
  return (
    normalized(a.street) === normalized(b.street) &&
    normalized(a.street_number) === normalized(b.street_number) &&
    normalized(a.zip_code, true) === normalized(b.zip_code, true) &&
    normalized(a.city) === normalized(b.city) &&
    normalized(a.country_code) === normalized(b.country_code)
  );
}

/** One change a sync makes. */
type SyncChange =
  | { kind: 'create'; product: ProductRecord; subscription: ExternalCustomerRecord['subscriptions'][number] }
  | {
      kind: 'update';
      userProduct: UserProductRecord;
      product: ProductRecord;
      subscription: ExternalCustomerRecord['subscriptions'][number];
    }
  | { kind: 'deactivate'; userProduct: UserProductRecord };

/**
 * What a sync of customer subscriptions (endpoint 19) would change, without changing anything:
 * every active external subscription has a user-product controlled by the system (matched by its
 * `subscription_number`), as the external system says; every other user-product of the system on
 * the account is deactivated. User-products of the platform or other provision services are left
 * alone. A product code the organisation does not have refuses the whole sync (`404 not_found`).
 */
export function planSync(
  state: State,
  system: SubscriptionSystemRecord,
  account: AccountRecord,
  customer: ExternalCustomerRecord,
): SyncChange[] {
  const mine = state.userProductsOf(account.id).filter((u) => u.provision_service === system.provision_service);
  const changes: SyncChange[] = [];
  const kept = new Set<UserProductRecord>();
  for (const subscription of customer.subscriptions) {
    if (subscription.state !== 'active') continue;
    const product = state.productByCode(account.organisation_id, subscription.product_code);
    if (!product)
      throw notFound(
        undefined,
        `The external system's subscription ${subscription.subscription_number} is of ${subscription.product_code}, which the organisation does not have`,
      );
    const existing = mine.find((u) => u.subscription_number === subscription.subscription_number);
    if (!existing) {
      changes.push({ kind: 'create', product, subscription });
      continue;
    }
    kept.add(existing);
    const same =
      sameId(existing.product_id, product.id) &&
      existing.subscription_type === subscription.subscription_type &&
      // As instants, to the fraction each gives (a date-time is kept to nanoseconds, `Date.parse` to milliseconds).
      compareInstants(existing.valid_from, subscription.valid_from) === 0 &&
      compareInstants(existing.valid_to, subscription.valid_to) === 0 &&
      existing.state === 'activated';
    if (!same) changes.push({ kind: 'update', userProduct: existing, product, subscription });
  }
  for (const u of mine)
    if (!kept.has(u) && u.state !== 'deactivated') changes.push({ kind: 'deactivate', userProduct: u });
  return changes;
}

/**
 * Makes the changes of {@link planSync}; `updated` moves only on a user-product that changes. The
 * user-products it creates come last: one over the cap drops the oldest (`makeRoomForUserProduct`),
 * which may be one this sync changes, and a record is never changed once dropped.
 */
export function applySync(
  state: State,
  system: SubscriptionSystemRecord,
  account: AccountRecord,
  changes: readonly SyncChange[],
  now: string,
): void {
  const ordered = [...changes.filter((c) => c.kind !== 'create'), ...changes.filter((c) => c.kind === 'create')];
  for (const change of ordered) {
    switch (change.kind) {
      case 'create': {
        const { product, subscription } = change;
        addUserProduct(state, now, {
          accountId: account.id,
          product,
          subscriptionType: subscription.subscription_type,
          validFrom: subscription.valid_from,
          validTo: subscription.valid_to,
          provisionService: system.provision_service,
          subscriptionNumber: subscription.subscription_number,
        });
        break;
      }
      case 'update': {
        const { product, subscription } = change;
        state.userProducts.update(change.userProduct, (u) => {
          u.product_id = product.id;
          u.product_code = product.product_code;
          u.title_code = product.title_code;
          u.subscription_type = subscription.subscription_type;
          u.valid_from = subscription.valid_from;
          u.valid_to = subscription.valid_to;
          u.state = 'activated';
          u.updated = now;
        });
        break;
      }
      case 'deactivate':
        state.userProducts.update(change.userProduct, (u) => {
          u.state = 'deactivated';
          u.updated = now;
        });
    }
  }
}

/**
 * What `platform.subscriptionSystems.setDistribution` and `PATCH /__admin/subscription-systems/{organisation_id}`
 * change: whether the integration supports distribution information, and its distribution data
 * (zones and prices, replaced whole). A key left out stays as it is.
 */
export const DistributionSettings = COLLECTIONS.subscription_systems.schema
  .pick({ supports_distribution_information: true, distribution: true })
  .partial();

/** The in-process tools over the simulated systems (`platform.subscriptionSystems`). */
export function createSubscriptionSystems(state: State): SubscriptionSystems {
  const systemOrThrow = (organisationId: string) => {
    const system = state.subscriptionSystems.get(organisationId);
    if (!system) throw notFound('organisation_id', 'The organisation has no external subscription system');
    return system;
  };
  return {
    get(organisationId) {
      const system = state.subscriptionSystems.get(organisationId);
      return system && structuredClone(system);
    },
    setCustomer(organisationId, customer: ExternalCustomerInput) {
      const system = systemOrThrow(organisationId);
      const checked = validate(ExternalCustomer, customer, 'customer');
      const at = system.customers.findIndex((c) => c.customer_number === checked.customer_number);
      if (at >= 0) {
        system.customers[at] = checked;
        return;
      }
      // A new customer counts against the platform's cap; one replaced never does.
      if (externalCustomerCount(state.subscriptionSystems.rows) >= MAX_EXTERNAL_CUSTOMERS)
        throw new HttpError(
          400,
          'invalid_parameter',
          `The external subscription systems hold at most ${MAX_EXTERNAL_CUSTOMERS} customers together: make room with DELETE /__admin/subscription-systems/{organisation_id}/customers/{customer_number} (platform.subscriptionSystems.removeCustomer())`,
        );
      system.customers.push(checked);
    },
    setDistribution(organisationId, settings) {
      const system = systemOrThrow(organisationId);
      const checked = validate(DistributionSettings, settings);
      const distribution = checked.distribution;
      // The new distribution in place of this system's own counts against the platform's caps.
      if (distribution !== undefined)
        for (const cap of SYSTEM_CAPS.filter((c) => c.path[0] === 'distribution')) {
          let total = cap.count({ ...system, distribution });
          for (const other of state.subscriptionSystems.rows) if (other !== system) total += cap.count(other);
          if (total > cap.max)
            throw new HttpError(
              400,
              'invalid_parameter',
              `The external subscription systems hold at most ${cap.max} ${cap.what} together: this distribution would give them ${total}`,
              cap.path.join('.'),
            );
        }
      if (checked.supports_distribution_information !== undefined)
        system.supports_distribution_information = checked.supports_distribution_information;
      if (checked.distribution !== undefined) system.distribution = checked.distribution;
    },
    syncInFlight(organisationId) {
      return state.syncsInFlight.has(idKey(organisationId));
    },
    removeCustomer(organisationId, customerNumber) {
      const system = systemOrThrow(organisationId);
      const at = system.customers.findIndex((c) => c.customer_number === customerNumber);
      if (at < 0) throw notFound('customer_number', 'No such customer in the external system');
      system.customers.splice(at, 1);
    },
  };
}
