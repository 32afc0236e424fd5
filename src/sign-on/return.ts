/**
 * The way back from the shop (spec: "Return flow", steps 3-6). The shop sends the user to the site
 * with a `ticket` query parameter, either straight to the return URL (integration mode `ReturnUrl`)
 * or to the site's auth endpoint with `ticket` and `returnUrl` (mode `SeparateTicketAuth`). The site
 * exchanges the ticket (endpoint 23), may read the user (endpoint 24) and opens its own session.
 */
import type { AccessTokenResponse } from '../schemas/authorization.js';
import type { SignedInUser } from '../schemas/sign-on.js';
import { SignOnConfigurationError, SignOnValidationError } from './errors.js';
import { ReplayGuard } from './replay-guard.js';
import { parseReturnUrl } from './return-url.js';

/**
 * What the return helpers need from the SDK: the ticket exchange (endpoint 23) and, optionally, the
 * signed-in user read (endpoint 24). A client builds the handler with one itself
 * (`client.signOn.returnHandler()`); for {@link createReturnHandler}, wrap its calls, whose
 * parameters are objects: `{ exchangeTicket: (ticket) => client.authorization.exchangeTicket({ ticket }),
 * getSignedInUser: (accessToken) => client.me.get({ accessToken }) }`.
 */
export interface TicketExchanger {
  /** Exchanges a ticket for the user's access token (endpoint 23, grant `ticket`). */
  exchangeTicket(ticket: string): Promise<AccessTokenResponse>;
  /** Reads the signed-in user with the user's access token (endpoint 24). */
  getSignedInUser?(accessToken: string): Promise<SignedInUser>;
}

/** Options of {@link createReturnHandler}. */
export interface ReturnHandlerOptions {
  /** Exchanges tickets (and reads users, with `readUser`). */
  exchanger: TicketExchanger;
  /**
   * Refuses a ticket's second use. Default: a new in-memory {@link ReplayGuard}, right for one
   * process only; a site on several processes passes a guard over a shared {@link TicketStore}.
   */
  replayGuard?: ReplayGuard;
  /** Also read the signed-in user after the exchange (endpoint 24). Default `false`. */
  readUser?: boolean;
}

/** Result of {@link ReturnHandler.handleReturnUrl}. */
export type ReturnResult =
  | {
      /** The user came back without a ticket (e.g. the site's domain is not registered with the shop). */
      status: 'no_ticket';
      /** The URL the user came back to. */
      url: string;
    }
  | {
      /** The ticket was exchanged: open the site's session. */
      status: 'signed_in';
      /** The user's access token (endpoint 23). */
      tokens: AccessTokenResponse;
      /** The signed-in user (endpoint 24), when `readUser` is set. */
      user?: SignedInUser;
      /** The URL without its `ticket` parameter (other parameters unchanged): redirect here so the ticket leaves the address bar and history. */
      cleanUrl: string;
    };

/** Options of {@link ReturnHandler.handleSeparateTicketAuth}. */
export interface SeparateTicketAuthOptions {
  /**
   * The origins `returnUrl` may point to, e.g. `['https://site.example']`: scheme, host and port,
   * compared exactly (RFC 9700 section 4.1.3). The first one also gives the fallback, its `/`.
   */
  allowedOrigins: readonly string[];
}

/** Why {@link ReturnHandler.handleSeparateTicketAuth} refused a `returnUrl`. */
export type ReturnUrlRefusal =
  /** No `returnUrl` parameter. */
  | 'missing'
  /** Not an absolute `http(s)://` URL, or one with credentials, backslashes, whitespace or control characters. */
  | 'invalid'
  /** A valid URL whose origin is not one of the allowed origins. */
  | 'origin_not_allowed';

/** Result of {@link ReturnHandler.handleSeparateTicketAuth}. */
export type SeparateTicketAuthResult =
  | {
      /** The ticket was exchanged: open the site's session, then redirect to `redirectTo`. */
      status: 'signed_in';
      /** The user's access token (endpoint 23). */
      tokens: AccessTokenResponse;
      /** The signed-in user (endpoint 24), when `readUser` is set. */
      user?: SignedInUser;
      /** The accepted `returnUrl`, normalised. */
      redirectTo: string;
    }
  | {
      /** No ticket came with the request; the return URL is allowed, so send the user there, signed out. */
      status: 'no_ticket';
      /** The accepted `returnUrl`, normalised. */
      redirectTo: string;
    }
  | {
      /** The `returnUrl` was refused; the ticket was not exchanged (and so not consumed). */
      status: 'return_url_refused';
      /** Why the return URL was refused. */
      reason: ReturnUrlRefusal;
      /** A safe place to send the user instead: the first allowed origin's `/`. */
      fallbackUrl: string;
    };

/** The site's side of the return flow, made by {@link createReturnHandler}. */
export interface ReturnHandler {
  /**
   * Integration mode `ReturnUrl`: the request is the return URL itself, with `ticket` in its query.
   * Exchanges the ticket once (through the replay guard) and gives the URL without the ticket.
   *
   * @param request - the incoming request, or its URL
   * @throws {@link TicketReplayError} when the ticket was already used
   * @throws {@link SignOnValidationError} when `ticket` appears more than once
   * @throws whatever the exchanger throws, as-is (the ticket is then not marked as used)
   */
  handleReturnUrl(request: Request | URL | string): Promise<ReturnResult>;
  /**
   * Integration mode `SeparateTicketAuth`: the site's auth endpoint receives `ticket` and `returnUrl`.
   * The return URL is checked first, and only an absolute http(s) URL whose origin is exactly one of
   * `allowedOrigins` is followed (RFC 9700: no open redirector).
   *
   * A refused return URL stops the request before the exchange. The genuine shop always sends a
   * return URL the site registered, so a refused one marks a forged or tampered link: exchanging
   * first would consume the ticket (single-use) for nothing and open a session on a request the site
   * will not honour.
   *
   * @param request - the incoming request, or its URL
   * @param options - the allowed origins of `returnUrl`
   * @throws {@link SignOnConfigurationError} when `allowedOrigins` is empty or holds something that is not an origin
   * @throws {@link TicketReplayError} when the ticket was already used
   * @throws whatever the exchanger throws, as-is (the ticket is then not marked as used)
   */
  handleSeparateTicketAuth(
    request: Request | URL | string,
    options: SeparateTicketAuthOptions,
  ): Promise<SeparateTicketAuthResult>;
}

/**
 * Makes the site's handler of the return flow. Every exchange goes through the replay guard, so a
 * ticket is used at most once and a failed exchange leaves it usable; the user read (optional)
 * happens after the exchange, outside the guard, because the ticket is spent by then.
 *
 * @param options - the exchanger, the replay guard and whether to read the user
 * @throws {@link SignOnConfigurationError} when `readUser` is set but the exchanger has no `getSignedInUser`
 */
export function createReturnHandler(options: ReturnHandlerOptions): ReturnHandler {
  const { exchanger, readUser = false } = options;
  const guard = options.replayGuard ?? new ReplayGuard();
  if (readUser && typeof exchanger.getSignedInUser !== 'function') {
    throw new SignOnConfigurationError('readUser', 'readUser needs an exchanger with getSignedInUser');
  }

  async function exchange(ticket: string): Promise<{ tokens: AccessTokenResponse; user?: SignedInUser }> {
    const tokens = await guard.use(ticket, () => exchanger.exchangeTicket(ticket));
    if (!readUser || !exchanger.getSignedInUser) return { tokens };
    return { tokens, user: await exchanger.getSignedInUser(tokens.access_token) };
  }

  return {
    async handleReturnUrl(request) {
      const url = requestUrl(request);
      const ticket = readTicket(url);
      if (ticket === undefined) return { status: 'no_ticket', url: url.href };
      const result = await exchange(ticket);
      return { status: 'signed_in', ...result, cleanUrl: withoutParam(url, 'ticket') };
    },

    async handleSeparateTicketAuth(request, options) {
      // Without options, the same refusal as with none allowed (not a TypeError of destructuring).
      const origins = normaliseOrigins((options as SeparateTicketAuthOptions | undefined)?.allowedOrigins ?? []);
      const url = requestUrl(request);
      const returnUrls = url.searchParams.getAll('returnUrl');
      // Two return URLs are ambiguous (which one would a proxy or the browser follow?): refused.
      const checked = returnUrls.length > 1 ? { refused: 'invalid' as const } : checkReturnUrl(returnUrls[0], origins);
      if (typeof checked !== 'string') {
        return { status: 'return_url_refused', reason: checked.refused, fallbackUrl: `${origins[0]}/` };
      }
      const ticket = readTicket(url);
      if (ticket === undefined) return { status: 'no_ticket', redirectTo: checked };
      return { status: 'signed_in', ...(await exchange(ticket)), redirectTo: checked };
    },
  };
}

/**
 * Checks a return URL against allowed origins, exactly (RFC 9700 section 4.1.3, section 4.11: no open
 * redirector). Accepted: an absolute `http://` or `https://` URL, without credentials, backslashes,
 * whitespace or control characters, whose origin (scheme, host, port after parsing) equals one of
 * the allowed origins. No prefix, suffix or substring matching, so `//evil.example`,
 * `https://site.example.evil.example`, `https://site.example@evil.example` and `javascript:` fail.
 *
 * @param returnUrl - the URL to check, as received
 * @param allowedOrigins - the allowed origins, e.g. `['https://site.example']`
 * @returns the normalised URL to redirect to, or `undefined` when it is refused
 * @throws {@link SignOnConfigurationError} when `allowedOrigins` is empty or holds something that is not an origin
 */
export function allowedReturnUrl(returnUrl: string, allowedOrigins: readonly string[]): string | undefined {
  const checked = checkReturnUrl(returnUrl, normaliseOrigins(allowedOrigins));
  return typeof checked === 'string' ? checked : undefined;
}

function checkReturnUrl(
  returnUrl: string | undefined,
  origins: readonly string[],
): string | { refused: ReturnUrlRefusal } {
  if (returnUrl === undefined || returnUrl === '') return { refused: 'missing' };
  const url = parseReturnUrl(returnUrl);
  if (!url) return { refused: 'invalid' };
  return origins.includes(url.origin) ? url.href : { refused: 'origin_not_allowed' };
}

function normaliseOrigins(allowedOrigins: readonly string[]): string[] {
  if (!Array.isArray(allowedOrigins) || allowedOrigins.length === 0) {
    throw new SignOnConfigurationError('allowedOrigins', 'allowedOrigins must list at least one origin');
  }
  return allowedOrigins.map((entry) => {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    const isOrigin =
      url !== undefined &&
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      url.username === '' &&
      url.password === '' &&
      url.pathname === '/' &&
      url.search === '' &&
      url.hash === '' &&
      !entry.endsWith('/');
    if (!url || !isOrigin) {
      throw new SignOnConfigurationError(
        'allowedOrigins',
        'allowedOrigins entries must be origins: scheme, host and optional port, no path (e.g. https://site.example)',
      );
    }
    return url.origin;
  });
}

/** The absolute URL of an incoming request (a `Request`, `URL` or string). @internal */
export function requestUrl(request: Request | URL | string): URL {
  const href = typeof request === 'string' ? request : request instanceof URL ? request.href : request.url;
  try {
    return new URL(href);
  } catch {
    throw new SignOnValidationError('url', 'url: the request URL must be absolute');
  }
}

/** A query parameter that may appear at most once: two values make the request ambiguous. */
function single(url: URL, name: string): string | undefined {
  const values = url.searchParams.getAll(name);
  if (values.length > 1) throw new SignOnValidationError(name, `${name}: Parameter must appear at most once`);
  return values[0];
}

/** The `ticket` parameter; an empty one counts as none. */
function readTicket(url: URL): string | undefined {
  const ticket = single(url, 'ticket');
  return ticket === undefined || ticket === '' ? undefined : ticket;
}

/** The URL without one query parameter; the other pairs keep their exact encoding and order. */
function withoutParam(url: URL, name: string): string {
  const copy = new URL(url.href);
  const kept = copy.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && decodeName(pair) !== name);
  copy.search = kept.length > 0 ? `?${kept.join('&')}` : '';
  return copy.href;
}

function decodeName(pair: string): string {
  const raw = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}
