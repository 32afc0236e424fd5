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
  OrganisationRecord,
  ProductRecord,
  ProductSharingRecord,
  StateDocument,
} from './document.js';

const EMPTY: readonly ProductRecord[] = [];

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
    for (const o of doc.organisations) this.organisations.set(o.id.toLowerCase(), o);
    for (const c of doc.clients) this.clients.set(c.client_id, c);
    for (const a of doc.accounts) this.accounts.set(a.id.toLowerCase(), a);
    for (const p of doc.products) this.indexProduct(p);
    for (const s of doc.product_sharing) this.sharing.set(s.product_id.toLowerCase(), s);
    for (const t of doc.access_tokens) {
      this.tokens.set(t.access_token, t);
      this.refreshTokens.set(t.refresh_token, t);
    }
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

  /** Adds an issued access token. */
  addAccessToken(t: AccessTokenRecord): void {
    this.doc.access_tokens.push(t);
    this.tokens.set(t.access_token, t);
    this.refreshTokens.set(t.refresh_token, t);
  }
}
