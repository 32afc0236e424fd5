/**
 * The platform's live state: the state document's plain records, plus indexes (Maps) over them
 * so that every lookup a route makes is one step. A route reads and changes records in place and
 * keeps the indexes right through the methods here; `load` rebuilds every index.
 *
 * A later resource adds its list to the document schema, its Maps here and their filling in `load`.
 */
import type {
  AccessTokenRecord,
  AccountRecord,
  ClientRecord,
  MarketplaceRecord,
  OrganisationRecord,
  ProductRecord,
  ProductSharingRecord,
  SsoSessionRecord,
  StateDocument,
  TicketConfigurationRecord,
  TicketRecord,
  UserProductRecord,
} from './document.js';

const EMPTY: readonly ProductRecord[] = [];
const NO_USER_PRODUCTS: readonly UserProductRecord[] = [];

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
}

/** The key of a marketplace in its index. */
export function marketplaceKey(groupId: string, marketplaceId: string): string {
  return `${groupId}\u0000${marketplaceId}`;
}

function inOrganisation<T>(index: Map<string, Map<string, T>>, organisationId: string): Map<string, T> {
  let inner = index.get(organisationId);
  if (!inner) {
    inner = new Map();
    index.set(organisationId, inner);
  }
  return inner;
}

/** The live state and its indexes. Ids are indexed in lower case: the spec's id pattern ignores case. */
export class Store {
  doc!: StateDocument;
  readonly organisations = new Map<string, OrganisationRecord>();
  readonly clients = new Map<string, ClientRecord>();
  readonly accounts = new Map<string, AccountRecord>();
  readonly products = new Map<string, ProductRecord>();
  readonly sharing = new Map<string, ProductSharingRecord>();
  readonly tokens = new Map<string, AccessTokenRecord>();
  readonly refreshTokens = new Map<string, AccessTokenRecord>();
  readonly tickets = new Map<string, TicketRecord>();
  readonly ssoSessions = new Map<string, SsoSessionRecord>();
  /** By domain, in lower case. */
  readonly ticketConfigurations = new Map<string, TicketConfigurationRecord>();
  /** By {@link marketplaceKey}. */
  readonly marketplaces = new Map<string, MarketplaceRecord>();
  readonly userProducts = new Map<string, UserProductRecord>();
  /** The shop's browser sessions by session id (not part of the document). */
  readonly shopSessions = new Map<string, ShopSession>();
  private readonly families = new Map<string, AccessTokenRecord[]>();
  private readonly userProductsByAccount = new Map<string, UserProductRecord[]>();
  private readonly accountsByEmail = new Map<string, Map<string, AccountRecord>>();
  private readonly accountsBySsn = new Map<string, Map<string, AccountRecord>>();
  private readonly productsByOrganisation = new Map<string, ProductRecord[]>();
  private readonly productCodes = new Map<string, Map<string, ProductRecord>>();
  private readonly integrationCodes = new Map<string, Map<string, ProductRecord>>();

  constructor(doc: StateDocument) {
    this.load(doc);
  }

  /** Takes `doc` (already validated, owned from now on) as the state and rebuilds every index. */
  load(doc: StateDocument): void {
    this.doc = doc;
    this.organisations.clear();
    this.clients.clear();
    this.accounts.clear();
    this.products.clear();
    this.sharing.clear();
    this.tokens.clear();
    this.refreshTokens.clear();
    this.productsByOrganisation.clear();
    this.productCodes.clear();
    this.integrationCodes.clear();
    this.tickets.clear();
    this.ssoSessions.clear();
    this.ticketConfigurations.clear();
    this.marketplaces.clear();
    this.userProducts.clear();
    this.shopSessions.clear();
    this.families.clear();
    this.userProductsByAccount.clear();
    this.accountsByEmail.clear();
    this.accountsBySsn.clear();
    for (const o of doc.organisations) this.organisations.set(o.id.toLowerCase(), o);
    for (const c of doc.clients) this.clients.set(c.client_id, c);
    for (const a of doc.accounts) {
      const org = a.organisation_id.toLowerCase();
      this.accounts.set(a.id.toLowerCase(), a);
      inOrganisation(this.accountsByEmail, org).set(a.email.toLowerCase(), a);
      if (a.ssn !== undefined) inOrganisation(this.accountsBySsn, org).set(a.ssn, a);
    }
    for (const p of doc.products) this.indexProduct(p);
    for (const s of doc.product_sharing) this.sharing.set(s.product_id.toLowerCase(), s);
    for (const t of doc.access_tokens) this.indexAccessToken(t);
    for (const t of doc.tickets) this.tickets.set(t.ticket, t);
    for (const s of doc.sso_sessions) this.ssoSessions.set(s.sid, s);
    for (const c of doc.ticket_configurations) this.ticketConfigurations.set(c.domain.toLowerCase(), c);
    for (const m of doc.marketplaces) this.marketplaces.set(marketplaceKey(m.group_id, m.marketplace_id), m);
    for (const u of doc.user_products) this.indexUserProduct(u);
  }

  private indexAccessToken(t: AccessTokenRecord): void {
    this.tokens.set(t.access_token, t);
    this.refreshTokens.set(t.refresh_token, t);
    const family = t.family ?? t.access_token;
    const members = this.families.get(family);
    if (members) members.push(t);
    else this.families.set(family, [t]);
  }

  private indexUserProduct(u: UserProductRecord): void {
    const account = u.account_id.toLowerCase();
    this.userProducts.set(u.id.toLowerCase(), u);
    const list = this.userProductsByAccount.get(account);
    if (list) list.push(u);
    else this.userProductsByAccount.set(account, [u]);
  }

  private indexProduct(p: ProductRecord): void {
    const org = p.organisation_id.toLowerCase();
    this.products.set(p.id.toLowerCase(), p);
    const list = this.productsByOrganisation.get(org);
    if (list) list.push(p);
    else this.productsByOrganisation.set(org, [p]);
    inOrganisation(this.productCodes, org).set(p.product_code, p);
    if (p.integration_code !== undefined) inOrganisation(this.integrationCodes, org).set(p.integration_code, p);
  }

  /** The organisation of a record, by id. */
  organisation(id: string): OrganisationRecord | undefined {
    return this.organisations.get(id.toLowerCase());
  }

  /** A product of an organisation by id; undefined when absent or another organisation's. */
  product(organisationId: string, productId: string): ProductRecord | undefined {
    const p = this.products.get(productId.toLowerCase());
    return p && p.organisation_id.toLowerCase() === organisationId.toLowerCase() ? p : undefined;
  }

  /** A product of an organisation by product code. */
  productByCode(organisationId: string, code: string): ProductRecord | undefined {
    return this.productCodes.get(organisationId.toLowerCase())?.get(code);
  }

  /** A product of an organisation by integration code. */
  productByIntegrationCode(organisationId: string, code: string): ProductRecord | undefined {
    return this.integrationCodes.get(organisationId.toLowerCase())?.get(code);
  }

  /** Every product of an organisation, in document order. */
  productsOf(organisationId: string): readonly ProductRecord[] {
    return this.productsByOrganisation.get(organisationId.toLowerCase()) ?? EMPTY;
  }

  /** An account of an organisation by e-mail address (case-insensitive). */
  accountByEmail(organisationId: string, email: string): AccountRecord | undefined {
    return this.accountsByEmail.get(organisationId.toLowerCase())?.get(email.toLowerCase());
  }

  /** An account of an organisation by social security number. */
  accountBySsn(organisationId: string, ssn: string): AccountRecord | undefined {
    return this.accountsBySsn.get(organisationId.toLowerCase())?.get(ssn);
  }

  /** An account of an organisation by id; undefined when absent or another organisation's. */
  account(organisationId: string, accountId: string): AccountRecord | undefined {
    const a = this.accounts.get(accountId.toLowerCase());
    return a && a.organisation_id.toLowerCase() === organisationId.toLowerCase() ? a : undefined;
  }

  /** Every user-product of an account, in document order. */
  userProductsOf(accountId: string): readonly UserProductRecord[] {
    return this.userProductsByAccount.get(accountId.toLowerCase()) ?? NO_USER_PRODUCTS;
  }

  /** The marketplace `groupId`/`marketplaceId`. */
  marketplace(groupId: string, marketplaceId: string): MarketplaceRecord | undefined {
    return this.marketplaces.get(marketplaceKey(groupId, marketplaceId));
  }

  /** The ticket configuration of a host name (case-insensitive). */
  ticketConfiguration(hostname: string): TicketConfigurationRecord | undefined {
    return this.ticketConfigurations.get(hostname.toLowerCase());
  }

  /** Every token of a token's refresh family (the token itself at least). */
  familyOf(t: AccessTokenRecord): readonly AccessTokenRecord[] {
    return this.families.get(t.family ?? t.access_token) ?? [t];
  }

  /** Adds an issued access token. */
  addAccessToken(t: AccessTokenRecord): void {
    this.doc.access_tokens.push(t);
    this.indexAccessToken(t);
  }

  /** Adds an issued ticket. */
  addTicket(t: TicketRecord): void {
    this.doc.tickets.push(t);
    this.tickets.set(t.ticket, t);
  }

  /** Adds an SSO session. */
  addSsoSession(s: SsoSessionRecord): void {
    this.doc.sso_sessions.push(s);
    this.ssoSessions.set(s.sid, s);
  }

  /** Adds a user-product. */
  addUserProduct(u: UserProductRecord): void {
    this.doc.user_products.push(u);
    this.indexUserProduct(u);
  }
}
