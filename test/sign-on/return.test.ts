import { describe, expect, it, vi } from 'vitest';
import type { AccessTokenResponse } from '../../src/schemas/authorization.js';
import type { SignedInUser } from '../../src/schemas/sign-on.js';
import {
  allowedReturnUrl,
  createReturnHandler,
  ReplayGuard,
  SignOnConfigurationError,
  SignOnValidationError,
  type TicketExchanger,
  TicketReplayError,
} from '../../src/sign-on/index.js';

const TICKET = 'shop-ticket-0001';
const TOKENS: AccessTokenResponse = {
  access_token: 'user-access-token',
  token_type: 'Bearer',
  expires_in: 3600,
  refresh_token: 'r',
};
const USER: SignedInUser = {
  id: '5f1e2d3c4b5a69788796a5b4',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  customerNumber: 'C-1',
  address: { street: 'Main 1', zipCode: '0150', city: 'Oslo', countryCode: 'NO' },
};
const SITE = 'https://site.example';
const ALLOWED = { allowedOrigins: [SITE] };

/** A fake authorization API: valid tickets exchange once, like the platform's. */
function fakeExchanger(valid: string[] = [TICKET]) {
  const unused = new Set(valid);
  const exchanger = {
    exchangeTicket: vi.fn(async (ticket: string) => {
      if (!unused.delete(ticket)) throw new Error('401 invalid ticket');
      return TOKENS;
    }),
    getSignedInUser: vi.fn(async (_accessToken: string) => USER),
  } satisfies TicketExchanger;
  return exchanger;
}

const authUrl = (returnUrl: string | undefined, ticket: string | null = TICKET) => {
  const url = new URL(`${SITE}/auth/ticket`);
  if (ticket !== null) url.searchParams.set('ticket', ticket);
  if (returnUrl !== undefined) url.searchParams.set('returnUrl', returnUrl);
  return url;
};

describe('return flow, integration mode ReturnUrl (handleReturnUrl)', () => {
  it('exchanges the ticket and gives the URL without the ticket, other parameters unchanged', async () => {
    const exchanger = fakeExchanger();
    const handler = createReturnHandler({ exchanger });
    const result = await handler.handleReturnUrl(`${SITE}/welcome?a=1&ticket=${TICKET}&b=two+words&c=%C3%A6#top`);
    expect(result).toEqual({
      status: 'signed_in',
      tokens: TOKENS,
      cleanUrl: `${SITE}/welcome?a=1&b=two+words&c=%C3%A6#top`,
    });
    expect(exchanger.exchangeTicket).toHaveBeenCalledWith(TICKET);
    expect(exchanger.getSignedInUser).not.toHaveBeenCalled();
  });

  it('drops the query entirely when the ticket was its only parameter', async () => {
    const result = await createReturnHandler({ exchanger: fakeExchanger() }).handleReturnUrl(
      new URL(`${SITE}/account?ticket=${TICKET}`),
    );
    expect(result).toMatchObject({ status: 'signed_in', cleanUrl: `${SITE}/account` });
  });

  it('reads the ticket from a Fetch API Request', async () => {
    const result = await createReturnHandler({ exchanger: fakeExchanger() }).handleReturnUrl(
      new Request(`${SITE}/?ticket=${TICKET}`),
    );
    expect(result.status).toBe('signed_in');
  });

  it.each([`${SITE}/welcome?a=1`, `${SITE}/welcome?ticket=`])(
    'without a ticket (%s) nothing is exchanged: no_ticket',
    async (url) => {
      const exchanger = fakeExchanger();
      const result = await createReturnHandler({ exchanger }).handleReturnUrl(url);
      expect(result).toEqual({ status: 'no_ticket', url: new URL(url).href });
      expect(exchanger.exchangeTicket).not.toHaveBeenCalled();
    },
  );

  it('reads the signed-in user with the new access token when readUser is set (endpoint 24)', async () => {
    const exchanger = fakeExchanger();
    const result = await createReturnHandler({ exchanger, readUser: true }).handleReturnUrl(
      `${SITE}/?ticket=${TICKET}`,
    );
    expect(result).toMatchObject({ status: 'signed_in', user: USER });
    expect(exchanger.getSignedInUser).toHaveBeenCalledWith(TOKENS.access_token);
  });

  it('refuses readUser without getSignedInUser at set-up', () => {
    expect(() => createReturnHandler({ exchanger: { exchangeTicket: async () => TOKENS }, readUser: true })).toThrow(
      SignOnConfigurationError,
    );
  });

  it('refuses a second use of the same return URL before it reaches the authorization API', async () => {
    const exchanger = fakeExchanger();
    const handler = createReturnHandler({ exchanger });
    await handler.handleReturnUrl(`${SITE}/?ticket=${TICKET}`);
    const error = await handler.handleReturnUrl(`${SITE}/?ticket=${TICKET}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TicketReplayError);
    expect((error as Error).message).not.toContain(TICKET);
    expect(exchanger.exchangeTicket).toHaveBeenCalledTimes(1);
  });

  it('rethrows a failed exchange as-is and does not mark the ticket as used', async () => {
    const failure = new Error('503 from the authorization API');
    let calls = 0;
    const exchanger: TicketExchanger = {
      exchangeTicket: async () => {
        calls++;
        if (calls === 1) throw failure;
        return TOKENS;
      },
    };
    const handler = createReturnHandler({ exchanger });
    await expect(handler.handleReturnUrl(`${SITE}/?ticket=${TICKET}`)).rejects.toBe(failure);
    await expect(handler.handleReturnUrl(`${SITE}/?ticket=${TICKET}`)).resolves.toMatchObject({ status: 'signed_in' });
  });

  it('shares a replay guard between handlers when one is given', async () => {
    const replayGuard = new ReplayGuard();
    await createReturnHandler({ exchanger: fakeExchanger(), replayGuard }).handleReturnUrl(`${SITE}/?ticket=${TICKET}`);
    await expect(
      createReturnHandler({ exchanger: fakeExchanger(), replayGuard }).handleReturnUrl(`${SITE}/?ticket=${TICKET}`),
    ).rejects.toBeInstanceOf(TicketReplayError);
  });

  it('refuses a URL with two tickets (ambiguous) without exchanging either', async () => {
    const exchanger = fakeExchanger();
    const error = await createReturnHandler({ exchanger })
      .handleReturnUrl(`${SITE}/?ticket=${TICKET}&ticket=other`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignOnValidationError);
    expect(exchanger.exchangeTicket).not.toHaveBeenCalled();
  });
});

describe('return flow, integration mode SeparateTicketAuth (handleSeparateTicketAuth)', () => {
  it('exchanges the ticket and redirects to a returnUrl on an allowed origin', async () => {
    const exchanger = fakeExchanger();
    const result = await createReturnHandler({ exchanger, readUser: true }).handleSeparateTicketAuth(
      authUrl(`${SITE}/thanks?order=42`),
      ALLOWED,
    );
    expect(result).toEqual({ status: 'signed_in', tokens: TOKENS, user: USER, redirectTo: `${SITE}/thanks?order=42` });
    expect(exchanger.exchangeTicket).toHaveBeenCalledWith(TICKET);
  });

  it.each([
    ['the origin itself', SITE, `${SITE}/`],
    ['upper-case host', 'https://SITE.EXAMPLE/Path', `${SITE}/Path`],
    ['the default port written out', 'https://site.example:443/x', `${SITE}/x`],
    ['a query and a fragment', `${SITE}/a?b=c&d=e#f`, `${SITE}/a?b=c&d=e#f`],
  ])('accepts %s and redirects to the normalised URL', async (_what, returnUrl, expected) => {
    const result = await createReturnHandler({ exchanger: fakeExchanger() }).handleSeparateTicketAuth(
      authUrl(returnUrl),
      ALLOWED,
    );
    expect(result).toMatchObject({ status: 'signed_in', redirectTo: expected });
  });

  it('accepts any one of several allowed origins, exactly', async () => {
    const result = await createReturnHandler({ exchanger: fakeExchanger() }).handleSeparateTicketAuth(
      authUrl('https://shop-return.site.example:8443/done'),
      { allowedOrigins: [SITE, 'https://shop-return.site.example:8443'] },
    );
    expect(result).toMatchObject({ status: 'signed_in', redirectTo: 'https://shop-return.site.example:8443/done' });
  });

  // RFC 9700: exact origin matching, no open redirector. Every one is refused before the exchange.
  it.each([
    ['protocol-relative', '//evil.example/', 'invalid'],
    ['protocol-relative with a backslash', '/\\evil.example', 'invalid'],
    ['backslashes', '\\\\evil.example', 'invalid'],
    ['backslash before @', 'https://site.example\\@evil.example/', 'invalid'],
    ['backslash in the host', 'https://evil.example\\.site.example/', 'invalid'],
    ['a relative path', '/account', 'invalid'],
    ['scheme without slashes', 'https:evil.example', 'invalid'],
    ['scheme with one slash', 'https:/evil.example', 'invalid'],
    ['scheme with three slashes', 'https:///evil.example', 'invalid'],
    ['javascript:', 'javascript:alert(document.domain)//https://site.example', 'invalid'],
    ['mixed-case javascript:', 'JaVaScRiPt:alert(1)', 'invalid'],
    ['data:', 'data:text/html,<script>alert(1)</script>', 'invalid'],
    ['leading space', ' https://evil.example/', 'invalid'],
    ['tab inside the scheme', 'ht\ttps://site.example/', 'invalid'],
    ['newline in the host', 'https://site.example\n.evil.example/', 'invalid'],
    ['userinfo naming the site', 'https://site.example@evil.example/', 'invalid'],
    ['userinfo with a colon', 'https://site.example:443@evil.example/', 'invalid'],
    ['credentials on the allowed host', 'https://user:pass@site.example/', 'invalid'],
    ['an encoded @ in the host', 'https://site.example%40evil.example/', 'invalid'],
    ['allowed origin as a subdomain prefix', 'https://site.example.evil.example/', 'origin_not_allowed'],
    ['allowed origin as a suffix', 'https://evilsite.example/', 'origin_not_allowed'],
    ['allowed origin glued to another host', 'https://site.exampleevil.com/', 'origin_not_allowed'],
    ['allowed origin in the path', 'https://evil.example/https://site.example', 'origin_not_allowed'],
    ['allowed origin in the query', 'https://evil.example/?https://site.example', 'origin_not_allowed'],
    ['ideographic full stop', 'https://site.example\u3002evil.example/', 'origin_not_allowed'],
    ['a Cyrillic look-alike', 'https://\u0455ite.example/', 'origin_not_allowed'],
    ['scheme downgrade to http', 'http://site.example/', 'origin_not_allowed'],
    ['another port', 'https://site.example:8443/', 'origin_not_allowed'],
    ['a sub-domain', 'https://www.site.example/', 'origin_not_allowed'],
    ['empty', '', 'missing'],
    ['absent', undefined, 'missing'],
  ])('refuses a returnUrl with %s before the exchange, keeping the ticket usable', async (_what, returnUrl, reason) => {
    const exchanger = fakeExchanger();
    const handler = createReturnHandler({ exchanger });
    const result = await handler.handleSeparateTicketAuth(authUrl(returnUrl), ALLOWED);
    expect(result).toEqual({ status: 'return_url_refused', reason, fallbackUrl: `${SITE}/` });
    expect(exchanger.exchangeTicket).not.toHaveBeenCalled();
    // The ticket was neither consumed nor marked as used: it still works with a good return URL.
    await expect(handler.handleSeparateTicketAuth(authUrl(`${SITE}/`), ALLOWED)).resolves.toMatchObject({
      status: 'signed_in',
    });
  });

  it('refuses two returnUrl parameters (one allowed, one hostile)', async () => {
    const url = authUrl(`${SITE}/`);
    url.searchParams.append('returnUrl', 'https://evil.example/');
    const exchanger = fakeExchanger();
    const result = await createReturnHandler({ exchanger }).handleSeparateTicketAuth(url, ALLOWED);
    expect(result).toMatchObject({ status: 'return_url_refused', reason: 'invalid' });
    expect(exchanger.exchangeTicket).not.toHaveBeenCalled();
  });

  it('without a ticket and with an allowed returnUrl: no_ticket, redirect there signed out', async () => {
    const exchanger = fakeExchanger();
    const result = await createReturnHandler({ exchanger }).handleSeparateTicketAuth(
      authUrl(`${SITE}/thanks`, null),
      ALLOWED,
    );
    expect(result).toEqual({ status: 'no_ticket', redirectTo: `${SITE}/thanks` });
    expect(exchanger.exchangeTicket).not.toHaveBeenCalled();
  });

  it('refuses a replayed ticket on the auth endpoint', async () => {
    const handler = createReturnHandler({ exchanger: fakeExchanger() });
    await handler.handleSeparateTicketAuth(authUrl(`${SITE}/`), ALLOWED);
    await expect(handler.handleSeparateTicketAuth(authUrl(`${SITE}/`), ALLOWED)).rejects.toBeInstanceOf(
      TicketReplayError,
    );
  });

  it.each([
    ['an empty list', []],
    ['a trailing slash', ['https://site.example/']],
    ['a path', ['https://site.example/app']],
    ['no scheme', ['site.example']],
    ['a wildcard', ['*']],
    ['a javascript: URL', ['javascript:alert(1)']],
    ['credentials', ['https://u@site.example']],
  ])('refuses allowedOrigins with %s as configuration', async (_what, allowedOrigins) => {
    const exchanger = fakeExchanger();
    await expect(
      createReturnHandler({ exchanger }).handleSeparateTicketAuth(authUrl(`${SITE}/`), { allowedOrigins }),
    ).rejects.toBeInstanceOf(SignOnConfigurationError);
    expect(exchanger.exchangeTicket).not.toHaveBeenCalled();
  });

  it('refuses no options at all as configuration, naming allowedOrigins (not a TypeError)', async () => {
    const exchanger = fakeExchanger();
    const handler = createReturnHandler({ exchanger });
    await expect(
      (handler.handleSeparateTicketAuth as (request: URL | string) => Promise<unknown>)(authUrl(`${SITE}/`)),
    ).rejects.toMatchObject({ constructor: SignOnConfigurationError, option: 'allowedOrigins' });
    expect(exchanger.exchangeTicket).not.toHaveBeenCalled();
  });
});

describe('allowedReturnUrl', () => {
  it('gives the normalised URL for an allowed origin and undefined otherwise', () => {
    expect(allowedReturnUrl('https://SITE.example/x', [SITE])).toBe(`${SITE}/x`);
    expect(allowedReturnUrl('https://site.example.evil.example/', [SITE])).toBeUndefined();
    expect(allowedReturnUrl('//site.example/', [SITE])).toBeUndefined();
  });
});
