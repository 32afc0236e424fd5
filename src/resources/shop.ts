import { missingOption } from '../sign-on/internal.js';
import { type MarketplaceUrlParams, marketplaceUrl } from '../sign-on/shop.js';

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
   * @throws `SignOnConfigurationError` when the client has no `hosts.shop`, or it is not https
   * @throws `SignOnValidationError` when a parameter breaks the spec's rules
   */
  marketplaceUrl(params: MarketplaceUrlParams): string {
    if (this.#shopUrl === undefined) throw missingOption('marketplaceUrl', 'hosts.shop');
    return marketplaceUrl(this.#shopUrl, params);
  }
}
