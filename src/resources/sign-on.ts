import { missingOption } from '../sign-on/internal.js';
import type { ReplayGuard } from '../sign-on/replay-guard.js';
import { createReturnHandler, type ReturnHandler } from '../sign-on/return.js';
import type { Authorization } from './authorization.js';
import type { Me } from './me.js';

/** Options of {@link SignOn.returnHandler}. */
export interface ReturnHandlerConfig {
  /**
   * Refuses a ticket's second use for 120 s. Default: a new in-memory `ReplayGuard`, right for one
   * process only; a site on several processes passes a guard over a shared `TicketStore`.
   */
  replayGuard?: ReplayGuard;
  /** Also read the signed-in user (endpoint 24) with the new token. Default `false`. */
  readUser?: boolean;
  /** Space-separated scopes asked for the user's token in the ticket exchange. Default: the platform's. */
  scope?: string;
}

/** The way back from the shop (spec: "Return flow"), wired to the client's endpoints 23 and 24. */
export class SignOn {
  readonly #authorization: Authorization;
  readonly #me: Me;
  readonly #hasCredentials: boolean;

  /** @internal Made by the client. */
  constructor(authorization: Authorization, me: Me, hasCredentials: boolean) {
    this.#authorization = authorization;
    this.#me = me;
    this.#hasCredentials = hasCredentials;
  }

  /**
   * The site's handler of the shop's return: `handleReturnUrl` (integration mode `ReturnUrl`) and
   * `handleSeparateTicketAuth` (mode `SeparateTicketAuth`, with an exact-origin allow-list checked
   * before the ticket is spent). Each ticket is exchanged once through the replay guard with the
   * client's `credentials` (endpoint 23); a failed exchange leaves the ticket usable.
   *
   * Make one handler and keep it: its default replay guard lives inside it.
   *
   * ```ts
   * const handler = client.signOn.returnHandler({ readUser: true });
   * // GET https://site.example/welcome?ticket=... (mode ReturnUrl)
   * const result = await handler.handleReturnUrl(request);
   * if (result.status === 'signed_in') {
   *   openSession(result.user, result.tokens); // the site's own session
   *   return redirect(result.cleanUrl); // the ticket leaves the address bar
   * }
   * ```
   *
   * @throws `SignOnConfigurationError` (option `credentials`) at once when the client has none
   */
  returnHandler(config: ReturnHandlerConfig = {}): ReturnHandler {
    if (!this.#hasCredentials) throw missingOption('returnHandler', 'credentials');
    const { scope, replayGuard, readUser } = config;
    return createReturnHandler({
      exchanger: {
        exchangeTicket: (ticket) => this.#authorization.exchangeTicket({ ticket, scope }),
        getSignedInUser: (accessToken) => this.#me.get({ accessToken }),
      },
      ...(replayGuard ? { replayGuard } : {}),
      ...(readUser === undefined ? {} : { readUser }),
    });
  }
}
