/**
 * The platform's live state: the state document's plain records, and one {@link Collection} per
 * document key (built from its declaration in `COLLECTIONS`) holding the indexes every lookup a
 * route makes goes through, in one step. A route reads and changes records in place; it adds,
 * moves and removes them through the collections so that every index stays right. `load` (and so
 * `reset` and `restore`) drops every index, each built again from the declarations when first read: a new collection needs its
 * record schema, its declaration and its seed, and nothing here.
 */
import { Collection, type CollectionSpec } from './collection.js';
import {
  type AccessTokenRecord,
  type AccountRecord,
  COLLECTIONS,
  type CollectionKey,
  type MarketplaceRecord,
  type OrderRecord,
  type OrganisationRecord,
  type ProductRecord,
  type StateDocument,
  type TicketConfigurationRecord,
  type UserProductRecord,
} from './document.js';
import { idKey, sameId } from './ids.js';
import type { RetentionSettings } from './options.js';

/** `user_products` as a property name: `userProducts`. */
type Camel<S extends string> = S extends `${infer H}_${infer R}` ? `${H}${Capitalize<Camel<R>>}` : S;

/** The live collection of a declaration. */
type CollectionOf<C> = C extends CollectionSpec<infer T, infer I> ? Collection<T, I> : never;

/** One {@link Collection} per key of the state document, named in camelCase (`userProducts`). */
export type Collections = { readonly [K in CollectionKey as Camel<K>]: CollectionOf<(typeof COLLECTIONS)[K]> };

function camel(key: string): string {
  return key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The SSO service's count of wrong passwords for one e-mail address of an organisation. */
export interface LoginFailures {
  /** Wrong passwords in a row. */
  failures: number;
  /** Until when (platform clock, ms) the account is frozen; 0 when it is not. */
  frozenUntilMs: number;
}

/**
 * A browser session of the shop, behind its `shop_session` cookie. Kept beside the state
 * document, not in it: it is a browser's cookie, not platform data, and `load` (so `reset` and
 * `restore`) ends every one.
 */
export interface ShopSession {
  /** The account logged into the shop. */
  readonly account_id: string;
  /** When it was opened, by the platform clock. */
  readonly created_at: string;
  /** The CSRF token every form of this session carries (`csrf_token`). */
  readonly csrf_token: string;
  /** The ticket whose use opened it (endpoint 25): presented again, it ends the session. */
  readonly ticket?: string;
}

/** One live collection per declaration of `COLLECTIONS`, by document key and by property name. */
function liveCollections(): { byKey: Map<CollectionKey, Collection<object, never>>; named: Collections } {
  const byKey = new Map<CollectionKey, Collection<object, never>>();
  const named: Record<string, unknown> = {};
  for (const key of Object.keys(COLLECTIONS) as CollectionKey[]) {
    const collection = new Collection(COLLECTIONS[key] as never) as Collection<object, never>;
    byKey.set(key, collection);
    named[camel(key)] = collection;
  }
  return { byKey, named: named as Collections };
}

/**
 * The lookups routes make within an organisation, each one step through an index. Another
 * organisation's records are absent: a caller never tells "someone else's" from "none".
 */
function organisationLookups(c: Collections) {
  return {
    /** The organisation of a record, by id. */
    organisation(id: string): OrganisationRecord | undefined {
      return c.organisations.get(id);
    },

    /** An account of an organisation by id; undefined when absent or another organisation's. */
    account(organisationId: string, accountId: string): AccountRecord | undefined {
      const a = c.accounts.get(accountId);
      return a && sameId(a.organisation_id, organisationId) ? a : undefined;
    },

    /** An account of an organisation by e-mail address (case-insensitive). */
    accountByEmail(organisationId: string, email: string): AccountRecord | undefined {
      return c.accounts.find('email', organisationId, email);
    },

    /** An account of an organisation by social security number. */
    accountBySsn(organisationId: string, ssn: string): AccountRecord | undefined {
      return c.accounts.find('ssn', organisationId, ssn);
    },

    /** A product of an organisation by id; undefined when absent or another organisation's. */
    product(organisationId: string, productId: string): ProductRecord | undefined {
      const p = c.products.get(productId);
      return p && sameId(p.organisation_id, organisationId) ? p : undefined;
    },

    /** A product of an organisation by product code. */
    productByCode(organisationId: string, code: string): ProductRecord | undefined {
      return c.products.find('code', organisationId, code);
    },

    /** A product of an organisation by integration code. */
    productByIntegrationCode(organisationId: string, code: string): ProductRecord | undefined {
      return c.products.find('integrationCode', organisationId, code);
    },

    /** Every product of an organisation, in document order. */
    productsOf(organisationId: string): readonly ProductRecord[] {
      return c.products.list('organisation', organisationId);
    },

    /** A user-product by id when its account is of the organisation; undefined when absent or another organisation's. */
    userProduct(organisationId: string, userProductId: string): UserProductRecord | undefined {
      const u = c.userProducts.get(userProductId);
      const account = u && c.accounts.get(u.account_id);
      return account && sameId(account.organisation_id, organisationId) ? u : undefined;
    },
  };
}

/**
 * The other lookups routes make: an account's own records (another account's are absent), the
 * shop's marketplaces and ticket configurations, and token families.
 */
function recordLookups(c: Collections) {
  return {
    /** A user-product by id when it is the account's; undefined when absent or another account's. */
    userProductOfAccount(accountId: string, userProductId: string): UserProductRecord | undefined {
      const u = c.userProducts.get(userProductId);
      return u && sameId(u.account_id, accountId) ? u : undefined;
    },

    /** Every user-product of an account, in document order. */
    userProductsOf(accountId: string): readonly UserProductRecord[] {
      return c.userProducts.list('account', accountId);
    },

    /** An order by id when it is the account's; undefined when absent or another account's. */
    orderOfAccount(accountId: string, orderId: string): OrderRecord | undefined {
      const o = c.orders.get(orderId);
      return o && sameId(o.account_id, accountId) ? o : undefined;
    },

    /** The marketplace `groupId`/`marketplaceId`. */
    marketplace(groupId: string, marketplaceId: string): MarketplaceRecord | undefined {
      return c.marketplaces.find('id', groupId, marketplaceId);
    },

    /** The ticket configuration of a host name (case-insensitive). */
    ticketConfiguration(hostname: string): TicketConfigurationRecord | undefined {
      return c.ticketConfigurations.get(hostname);
    },

    /** Every token of a token's refresh family (the token itself at least). */
    familyOf(t: AccessTokenRecord): readonly AccessTokenRecord[] {
      const family = c.accessTokens.list('family', t.family ?? t.access_token);
      return family.length > 0 ? family : [t];
    },
  };
}

/**
 * Creates the live state over `document` (already validated, owned from now on), keeping what
 * `retention` says (`mock/core/eviction.ts`).
 */
export function createState(document: StateDocument, retention: RetentionSettings) {
  const { byKey, named } = liveCollections();
  const state = {
    ...named,
    ...organisationLookups(named),
    ...recordLookups(named),
    /** The state document: the records the collections index. */
    document,
    /** What is kept, and for how long: the caps of each kind and the lifetimes of sessions. */
    retention,
    /** The shop's browser sessions by session id (not part of the document). */
    shopSessions: new Map<string, ShopSession>(),
    /** Wrong passwords in a row, by organisation and lower-case e-mail (not part of the document). */
    loginFailures: new Map<string, LoginFailures>(),
    /** The password check under way for each organisation and lower-case e-mail, the last one queued (not part of the document). */
    passwordChecks: new Map<string, Promise<void>>(),
    /**
     * Organisations with a sync of customer subscriptions (endpoint 19) under way, by {@link idKey}
     * (not part of the document); `load` empties it.
     */
    syncsInFlight: new Set<string>(),
    /**
     * How many times a state has been loaded: a sync under way when `load` (so `reset`, `restore`)
     * replaces the state sees it change, and writes nothing into the new state.
     */
    generation: 0,

    /** Takes `next` (already validated, owned from now on) as the state; each index is built again when first read. */
    load(next: StateDocument): void {
      state.document = next;
      for (const [key, collection] of byKey) collection.load(next[key] as object[]);
      state.shopSessions.clear();
      state.loginFailures.clear();
      state.syncsInFlight.clear();
      state.generation++;
    },

    /** Every index of every collection, for a test that compares them after `reset()`. */
    describeIndexes(): Record<string, Record<string, [string, number[]][]>> {
      const out: Record<string, Record<string, [string, number[]][]>> = {};
      for (const [key, collection] of byKey) out[key] = collection.describeIndexes();
      return out;
    },
  };
  state.load(document);
  return state;
}

/** The live state and its indexes. */
export type State = ReturnType<typeof createState>;
