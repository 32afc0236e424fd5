import { missingOption } from '../sign-on/internal.js';
import { type MarketplaceUrlParams, marketplaceUrlOn, type ShopUrlRule } from '../sign-on/shop.js';

/** The client's `hosts.shop`, checked with the client's options (plain http where they take it). */
const CLIENT_SHOP: ShopUrlRule = { option: 'hosts.shop', plainHttp: true };

/** The shop (spec endpoint 25): where a signed-in user is sent with a ticket. Sends no request. */
export class Shop {
  readonly #shopUrl: string | undefined;

  /** @internal Made by the client. */
  constructor(shopUrl: string | undefined) {
    this.#shopUrl = shopUrl;
  }

  /**
   * The marketplace URL of endpoint 25 on `hosts.shop`:
   * `{shop_url}/marketplace/{groupId}/{marketplaceId}?at=<ticket>&returnUrl=...&campaign=...&period=...`.
   * Get the ticket with `authorization.generateTicket` (for the shop's client id) just before, and
   * pass a `returnUrl`: without it no return flow is possible. The URL carries a ticket: redirect
   * the browser to it, never log it.
   *
   * `hosts.shop` is held to the client's rule for every host: https, or http on a loopback host or
   * with `allowInsecureHttp: true`.
   *
   * @throws `SignOnConfigurationError` when the client has no `hosts.shop`
   * @throws `SignOnValidationError` when a parameter breaks the spec's rules
   */
  marketplaceUrl(params: MarketplaceUrlParams): string {
    if (this.#shopUrl === undefined) throw missingOption('marketplaceUrl', 'hosts.shop');
    return marketplaceUrlOn(this.#shopUrl, params, CLIENT_SHOP);
  }
}
