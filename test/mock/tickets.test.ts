/**
 * Tickets: generate ticket (endpoint 22), exchange ticket and refresh token for access tokens
 * (endpoint 23), and the signed-in user (endpoint 24), through both adapters.
 */
import { describe, expect, test } from 'vitest';
import { AccessTokenResponse, GenerateTicketResponse } from '../../src/schemas/authorization.js';
import { SignedInUser } from '../../src/schemas/sign-on.js';
import {
  ADAPTERS,
  type Answer,
  absent,
  demoIds,
  demoUsers,
  expectError,
  expectOk,
  expectUnchanged,
  paths,
  READ,
  USER_SCOPES,
  useAdapter,
} from './harness.js';

const TICKET_SCOPE = '/api/authorization/ticket';
const USER_TICKET_SCOPES = [...USER_SCOPES, TICKET_SCOPE];
const site = demoIds.clients.site;
const shop = demoIds.clients.shop;
const { anna, bo, carl, dora } = demoIds.accounts;

type Client = { clientId: string; clientSecret: string };

describe.each(ADAPTERS)('generate ticket (endpoint 22) through %s', (kind) => {
  const h = useAdapter(kind);
  const server = (scopes = [TICKET_SCOPE]) => h.token(scopes);
  const user = (accountId: string, scopes = USER_TICKET_SCOPES) =>
    h.platform.mintToken({ scopes, accountId }).access_token;
  const generate = (json: unknown, token: string | null) =>
    h.call(paths.generateTicket, { method: 'POST', host: 'auth', json, token });

  test('form (a): a server-to-server token names accountId and clientId; the ticket is bound to that client', async () => {
    const { ticket } = expectOk(
      await generate({ accountId: anna, clientId: site.clientId }, server()),
      GenerateTicketResponse,
    );
    expect(ticket).toMatch(/^[\w-]{43}$/); // 256 random bits, base64url
    const stored = h.platform.snapshot().tickets.find((t) => t.ticket === ticket);
    expect(stored).toMatchObject({ account_id: anna, client_id: site.clientId, used_at: null, access_token: null });
    expect(Date.parse(stored!.expires_at) - Date.parse(stored!.issued_at)).toBe(60_000);
  });

  test('form (b): a user token names only client_id; the user comes from the token', async () => {
    const { ticket } = expectOk(await generate({ client_id: shop.clientId }, user(bo)), GenerateTicketResponse);
    expect(h.platform.snapshot().tickets.find((t) => t.ticket === ticket)).toMatchObject({
      account_id: bo,
      client_id: shop.clientId,
    });
  });

  test('a ticket of form (b) is exchangeable by its client for a token of the same user', async () => {
    const { ticket } = expectOk(await generate({ client_id: site.clientId }, user(anna)), GenerateTicketResponse);
    const token = expectOk(
      await h.call(paths.accessToken, {
        method: 'POST',
        host: 'auth',
        json: { grant_type: 'ticket', ticket, client_id: site.clientId, client_secret: site.clientSecret },
      }),
      AccessTokenResponse,
    );
    const me = expectOk(await h.call(paths.getSignedInUser, { token: token.access_token }), SignedInUser);
    expect(me.id).toBe(anna);
  });

  test.each([
    ['an unknown account', { accountId: absent.id, clientId: site.clientId }, 'invalid_parameter', 'accountId'],
    ['a malformed account id', { accountId: 'anna', clientId: site.clientId }, 'invalid_parameter', 'accountId'],
    ["another organisation's account", { accountId: dora, clientId: site.clientId }, 'invalid_parameter', 'accountId'],
    ['an account that is not active', { accountId: carl, clientId: site.clientId }, 'account_not_active', 'accountId'],
    ['an unknown client', { accountId: anna, clientId: 'nobody' }, 'invalid_parameter', 'clientId'],
    ["another organisation's client", { accountId: anna, clientId: 'complex-client' }, 'invalid_parameter', 'clientId'],
    ['a missing clientId', { accountId: anna }, 'invalid_parameter', 'clientId'],
    ['an unknown field', { accountId: anna, clientId: site.clientId, scope: 'x' }, 'unknown_parameter', 'scope'],
    ['form (b) with a server-to-server token', { client_id: site.clientId }, 'invalid_parameter', 'client_id'],
  ])('form (a) refuses %s: 400 %s naming %s, no ticket issued', async (_, json, code, field) => {
    const token = server();
    await expectUnchanged(h.platform, async () => expectError(await generate(json, token), 400, code, field));
  });

  test.each([
    [
      'form (a) with a user token',
      anna,
      { accountId: anna, clientId: site.clientId },
      'invalid_parameter',
      'accountId',
    ],
    ['an unknown client_id', anna, { client_id: 'nobody' }, 'invalid_parameter', 'client_id'],
    ['an empty body', anna, {}, 'invalid_parameter', 'client_id'],
    ['a user whose account is not active', carl, { client_id: site.clientId }, 'account_not_active', undefined],
  ])('form (b) refuses %s: 400 %s', async (_, accountId, json, code, field) => {
    const token = user(accountId);
    await expectUnchanged(h.platform, async () => expectError(await generate(json, token), 400, code, field));
  });

  test('a query parameter on an endpoint that takes a body: 400 unknown_parameter naming it; no ticket', async () => {
    const json = { accountId: anna, clientId: site.clientId };
    const token = server();
    await expectUnchanged(h.platform, async () => {
      const answer = await h.call(paths.generateTicket, {
        method: 'POST',
        host: 'auth',
        query: { foo: 'bar' },
        json,
        token,
      });
      expect(expectError(answer, 400, 'unknown_parameter', 'foo').message).toBe('Unknown parameter: foo');
    });
    expectOk(await generate(json, token), GenerateTicketResponse);
  });

  test('401 for a missing, unknown or expired token; 403 without the scope', async () => {
    const json = { accountId: anna, clientId: site.clientId };
    expectError(await generate(json, null), 401, 'invalid_token', 'authorization');
    expectError(await generate(json, 'not-a-token'), 401, 'invalid_token', 'authorization');
    const token = server();
    h.platform.clock.advance(3600);
    expectError(await generate(json, token), 401, 'invalid_token', 'authorization');
    expectError(await generate(json, server([READ])), 403, 'insufficient_scope');
    expect(h.platform.snapshot().tickets).toEqual([]);
  });
});

describe.each(ADAPTERS)('exchange ticket for access token (endpoint 23, grant ticket) through %s', (kind) => {
  const h = useAdapter(kind);
  const ticketFor = (accountId: string = anna, clientId: string = site.clientId) =>
    h.platform.issueTicket({ accountId, clientId });
  const exchange = (ticket: string, client: Client = site, extra: Record<string, unknown> = {}) =>
    h.call(paths.accessToken, {
      method: 'POST',
      host: 'auth',
      json: { grant_type: 'ticket', ticket, client_id: client.clientId, client_secret: client.clientSecret, ...extra },
    });
  const me = (token: string) => h.call(paths.getSignedInUser, { token });
  const refresh = (refreshToken: string, client: Client = site) =>
    h.call(paths.accessToken, {
      method: 'POST',
      host: 'auth',
      json: {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: client.clientId,
        client_secret: client.clientSecret,
      },
    });

  test("a valid ticket: a user token with the user scopes and a refresh token; /me answers the ticket's user", async () => {
    const ticket = ticketFor();
    const answer = await exchange(ticket);
    const token = expectOk(answer, AccessTokenResponse);
    expect(token).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: '/external/me/r /external/me/w /api/authorization/ticket',
    });
    expect(token.refresh_token).toMatch(/^[\w-]{43}$/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(expectOk(await me(token.access_token), SignedInUser).id).toBe(anna);
    const stored = h.platform.snapshot().tickets.find((t) => t.ticket === ticket)!;
    expect(stored.used_at).not.toBeNull();
    expect(stored.access_token).toBe(token.access_token);
  });

  test.each([
    ['in a JSON body', false],
    ['in a form body', true],
  ])(
    'a query parameter on an endpoint that takes a body, %s: 400 unknown_parameter naming it; the ticket stays usable',
    async (_, form) => {
      const ticket = ticketFor();
      const fields = { grant_type: 'ticket', ticket, client_id: site.clientId, client_secret: site.clientSecret };
      await expectUnchanged(h.platform, async () => {
        const answer = await h.call(paths.accessToken, {
          method: 'POST',
          host: 'auth',
          query: { client_id: site.clientId },
          ...(form ? { form: fields } : { json: fields }),
        });
        expect(expectError(answer, 400, 'unknown_parameter', 'client_id').message).toBe('Unknown parameter: client_id');
      });
      expectOk(await exchange(ticket), AccessTokenResponse);
    },
  );

  test('a form-urlencoded body is accepted too', async () => {
    const form = {
      grant_type: 'ticket',
      ticket: ticketFor(),
      client_id: site.clientId,
      client_secret: site.clientSecret,
    };
    expectOk(await h.call(paths.accessToken, { method: 'POST', host: 'auth', form }), AccessTokenResponse);
  });

  test('scope: only what is asked, within the user scopes and the client scopes', async () => {
    const token = expectOk(await exchange(ticketFor(), site, { scope: '/external/me/r' }), AccessTokenResponse);
    expect(token.scope).toBe('/external/me/r');
    const withClientScope = expectOk(
      await exchange(ticketFor(), site, { scope: '/external/order_validation/r' }),
      AccessTokenResponse,
    );
    expect(withClientScope.scope).toBe('/external/order_validation/r');
  });

  test('a scope outside the client and user scopes: 400 invalid_scope, and the ticket stays usable', async () => {
    const ticket = ticketFor();
    await expectUnchanged(h.platform, async () =>
      expectError(await exchange(ticket, site, { scope: '/external/price/w' }), 400, 'invalid_scope', 'scope'),
    );
    expectOk(await exchange(ticket), AccessTokenResponse);
  });

  test('scope is at most 1,024 characters: the longest is granted; one more is 400 invalid_parameter naming scope, and the ticket stays usable', async () => {
    const longest = '/external/me/r '.repeat(68).padEnd(1024, ' ');
    expect(longest).toHaveLength(1024);
    const token = expectOk(await exchange(ticketFor(), site, { scope: longest }), AccessTokenResponse);
    expect(token.scope).toBe('/external/me/r');
    const ticket = ticketFor();
    await expectUnchanged(h.platform, async () => {
      const answer = await exchange(ticket, site, { scope: `${longest} ` });
      expect(expectError(answer, 400, 'invalid_parameter', 'scope').message).toBe(
        'Parameter size must be at most 1024',
      );
    });
    expectOk(await exchange(ticket), AccessTokenResponse);
  });

  test('a ticket used twice, one after the other: the second is 401 invalid_grant AND the first token is revoked (RFC 6749 10.5)', async () => {
    const ticket = ticketFor();
    const first = expectOk(await exchange(ticket), AccessTokenResponse);
    expect((await me(first.access_token)).status).toBe(200);
    const body = expectError(await exchange(ticket), 401, 'invalid_grant', 'ticket');
    expect(body.message).toMatch(/already used/);
    const revoked = expectError(await me(first.access_token), 401, 'invalid_token', 'authorization');
    expect(revoked.message).toMatch(/revoked/i);
    expectError(await refresh(first.refresh_token!), 401, 'invalid_grant', 'refresh_token');
  });

  test('a ticket exchanged twice at once: exactly one 200, and that token is then revoked', async () => {
    const ticket = ticketFor();
    const answers = await Promise.all([exchange(ticket), exchange(ticket)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    const winner = AccessTokenResponse.parse(answers.find((a) => a.status === 200)!.body);
    expectError(answers.find((a) => a.status === 401)!, 401, 'invalid_grant', 'ticket');
    expectError(await me(winner.access_token), 401, 'invalid_token', 'authorization');
  });

  test('a ticket expires on the platform clock: usable 59 s after issue, 401 invalid_grant at 60 s', async () => {
    const early = ticketFor();
    const late = ticketFor();
    h.platform.clock.advance(59);
    expectOk(await exchange(early), AccessTokenResponse);
    h.platform.clock.advance(1);
    const body = await expectUnchanged(h.platform, async () =>
      expectError(await exchange(late), 401, 'invalid_grant', 'ticket'),
    );
    expect(body.message).toMatch(/expired/);
  });

  test('a ticket bound to another client: 401 invalid_grant, and it stays usable by its rightful client', async () => {
    const ticket = ticketFor();
    await expectUnchanged(h.platform, async () =>
      expectError(await exchange(ticket, shop), 401, 'invalid_grant', 'ticket'),
    );
    expectOk(await exchange(ticket), AccessTokenResponse);
  });

  test.each([
    ['a wrong client secret', { clientId: site.clientId, clientSecret: 'wrong-secret-0123456789abcdef0123456789' }],
    ['an unknown client', { clientId: 'nobody', clientSecret: site.clientSecret }],
  ])('%s: 401 invalid_client, the ticket is not judged and stays usable', async (_, client) => {
    const ticket = ticketFor();
    await expectUnchanged(h.platform, async () => {
      const answer = await exchange(ticket, client);
      expectError(answer, 401, 'invalid_client');
      expect(answer.text).not.toContain(client.clientSecret);
    });
    expectOk(await exchange(ticket), AccessTokenResponse);
  });

  test('an unknown ticket: 401 invalid_grant', async () => {
    await expectUnchanged(h.platform, async () =>
      expectError(await exchange('a'.repeat(43)), 401, 'invalid_grant', 'ticket'),
    );
  });

  test('an account no longer active: 401 invalid_grant', async () => {
    const ticket = ticketFor();
    const doc = h.platform.snapshot();
    doc.accounts.find((a) => a.id === anna)!.status = 'login_disabled';
    h.platform.restore(doc);
    const body = expectError(await exchange(ticket), 401, 'invalid_grant', 'ticket');
    expect(body.message).toMatch(/not active/);
  });

  test('a malformed request: 400 invalid_parameter naming the field; the ticket stays usable', async () => {
    const ticket = ticketFor();
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.accessToken, {
        method: 'POST',
        host: 'auth',
        json: { grant_type: 'ticket', client_id: site.clientId, client_secret: site.clientSecret },
      }),
    );
    expectError(answer, 400, 'invalid_parameter', 'ticket');
    expectOk(await exchange(ticket), AccessTokenResponse);
  });

  test('the client authenticates in the body only: an Authorization: Basic header is not read (400 invalid_parameter naming client_id); the ticket stays usable', async () => {
    const ticket = ticketFor();
    const basic = `Basic ${btoa(`${site.clientId}:${site.clientSecret}`)}`;
    await expectUnchanged(h.platform, async () => {
      const answer = await h.call(paths.accessToken, {
        method: 'POST',
        host: 'auth',
        form: { grant_type: 'ticket', ticket },
        headers: { authorization: basic },
      });
      expectError(answer, 400, 'invalid_parameter', 'client_id');
    });
    expectOk(await exchange(ticket), AccessTokenResponse);
  });

  test('refresh_token grant rotates: a new pair; the spent refresh token reused is 401 invalid_grant and revokes the live token', async () => {
    const first = expectOk(await exchange(ticketFor()), AccessTokenResponse);
    const second = expectOk(await refresh(first.refresh_token!), AccessTokenResponse);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe(first.scope);
    expect(expectOk(await me(second.access_token), SignedInUser).id).toBe(anna);
    expectError(await refresh(first.refresh_token!), 401, 'invalid_grant', 'refresh_token');
    expectError(await me(second.access_token), 401, 'invalid_token', 'authorization');
    expectError(await refresh(second.refresh_token!), 401, 'invalid_grant', 'refresh_token');
  });

  test('a refresh token expires 30 days after it is issued (refreshTokenLifetimeSeconds): 401 invalid_grant, nothing changes', async () => {
    const thirtyDays = 30 * 24 * 3600;
    const first = expectOk(await exchange(ticketFor()), AccessTokenResponse);
    h.platform.clock.freeze();
    h.platform.clock.advance(thirtyDays - 1);
    // Each refresh issues a pair whose refresh token has 30 days of its own.
    const second = expectOk(await refresh(first.refresh_token!), AccessTokenResponse);
    h.platform.clock.advance(thirtyDays);
    await expectUnchanged(h.platform, async () => {
      const error = expectError(await refresh(second.refresh_token!), 401, 'invalid_grant', 'refresh_token');
      expect(error.message).toBe('The refresh token has expired');
    });
  });

  test('refresh_token grant: only the client the token was issued to; a wrong secret is 401 invalid_client', async () => {
    const first = expectOk(await exchange(ticketFor()), AccessTokenResponse);
    await expectUnchanged(h.platform, async () => {
      expectError(await refresh(first.refresh_token!, shop), 401, 'invalid_grant', 'refresh_token');
      const wrong = { clientId: site.clientId, clientSecret: 'wrong-secret-0123456789abcdef0123456789' };
      expectError(await refresh(first.refresh_token!, wrong), 401, 'invalid_client');
      expectError(await refresh('unknown-refresh-token'), 401, 'invalid_grant', 'refresh_token');
    });
    expectOk(await refresh(first.refresh_token!), AccessTokenResponse);
  });

  test('refresh_token grant works for a server-to-server token, in a form body', async () => {
    const { refresh_token } = h.platform.mintToken({ scopes: [READ], clientId: site.clientId });
    const form = {
      grant_type: 'refresh_token',
      refresh_token: refresh_token!,
      client_id: site.clientId,
      client_secret: site.clientSecret,
    };
    const token = expectOk(
      await h.call(paths.accessToken, { method: 'POST', host: 'auth', form }),
      AccessTokenResponse,
    );
    expect(token.scope).toBe(READ);
    expect((await h.call(paths.getProducts, { token: token.access_token })).status).toBe(200);
  });
});

describe('ticket lifetime', () => {
  const h = useAdapter('msw', { ticketLifetimeSeconds: 5 });

  test('tickets live ticketLifetimeSeconds on the platform clock', async () => {
    const ticket = h.platform.issueTicket({ accountId: anna, clientId: site.clientId });
    h.platform.clock.advance(5);
    const answer: Answer = await h.call(paths.accessToken, {
      method: 'POST',
      host: 'auth',
      json: { grant_type: 'ticket', ticket, client_id: site.clientId, client_secret: site.clientSecret },
    });
    expectError(answer, 401, 'invalid_grant', 'ticket');
  });
});

describe.each(ADAPTERS)('get signed-in user (endpoint 24) through %s', (kind) => {
  const h = useAdapter(kind);
  const userToken = (accountId: string = anna) =>
    h.platform.mintToken({ scopes: USER_TICKET_SCOPES, accountId }).access_token;

  test("a user token answers the user's account as the spec spells it", async () => {
    const answer = await h.call(paths.getSignedInUser, { token: userToken() });
    expect(expectOk(answer, SignedInUser)).toEqual({
      id: anna,
      email: demoUsers.anna.email,
      firstName: 'Anna',
      lastName: 'Andersson',
      customerNumber: 'C1001',
      address: { street: 'Storgatan 1', zipCode: '111 22', city: 'Stockholm', countryCode: 'SE' },
    });
    expect(answer.text).not.toContain(demoUsers.anna.password);
  });

  test('the path works without its trailing slash', async () => {
    expect(expectOk(await h.call('/external/api/v1/me', { token: userToken(bo) }), SignedInUser).id).toBe(bo);
  });

  test('a server-to-server token: 403 identity_required', async () => {
    const token = h.token(USER_TICKET_SCOPES);
    const answer = await expectUnchanged(h.platform, () => h.call(paths.getSignedInUser, { token }));
    expectError(answer, 403, 'identity_required');
  });

  test('no token, an unknown token, an expired token: 401 invalid_token', async () => {
    const token = userToken();
    const refused = (bearer?: string) =>
      expectUnchanged(h.platform, () => h.call(paths.getSignedInUser, { token: bearer }));
    expectError(await refused(), 401, 'invalid_token', 'authorization');
    expectError(await refused('nope'), 401, 'invalid_token', 'authorization');
    h.platform.clock.advance(3600);
    expectError(await refused(token), 401, 'invalid_token', 'authorization');
  });

  test('an account without an address reads empty address fields', async () => {
    const doc = h.platform.snapshot();
    delete doc.accounts.find((a) => a.id === bo)!.address;
    h.platform.restore(doc);
    const user = expectOk(await h.call(paths.getSignedInUser, { token: userToken(bo) }), SignedInUser);
    expect(user.address).toEqual({ street: '', zipCode: '', city: '', countryCode: '' });
  });
});

describe.each(ADAPTERS)('why a ticket is refused, in the words of endpoint 23, through %s', (kind) => {
  const h = useAdapter(kind);
  const exchange = (ticket: string, client: Client = site) =>
    h.call(paths.accessToken, {
      method: 'POST',
      host: 'auth',
      json: { grant_type: 'ticket', ticket, client_id: client.clientId, client_secret: client.clientSecret },
    });
  const refusal = async (ticket: string, client: Client = site) =>
    expectError(await exchange(ticket, client), 401, 'invalid_grant', 'ticket').message;

  test('each refusal says why', async () => {
    const ticket = h.platform.issueTicket({ accountId: anna, clientId: site.clientId });
    expect(await refusal('a'.repeat(43))).toBe('Unknown ticket');
    expect(await refusal(ticket, shop)).toBe('The ticket was issued for another client');
    expectOk(await exchange(ticket), AccessTokenResponse);
    expect(await refusal(ticket)).toBe('The ticket was already used');
    const late = h.platform.issueTicket({ accountId: anna, clientId: site.clientId });
    h.platform.clock.advance(60);
    expect(await refusal(late)).toBe('The ticket has expired');
    const inactive = h.platform.issueTicket({ accountId: anna, clientId: site.clientId });
    const doc = h.platform.snapshot();
    doc.accounts.find((a) => a.id === anna)!.status = 'login_disabled';
    h.platform.restore(doc);
    expect(await refusal(inactive)).toBe('The account of the ticket is not active');
  });

  test('a used ticket presented again later leaves the time its tokens were first revoked', async () => {
    h.platform.clock.freeze();
    const ticket = h.platform.issueTicket({ accountId: anna, clientId: site.clientId });
    const { access_token } = expectOk(await exchange(ticket), AccessTokenResponse);
    await refusal(ticket);
    const revokedAt = () =>
      h.platform.snapshot().access_tokens.find((t) => t.access_token === access_token)?.revoked_at;
    const first = revokedAt();
    expect(first).toBe(h.platform.clock.now().toISOString());
    h.platform.clock.advance(30);
    await refusal(ticket);
    expect(revokedAt()).toBe(first);
  });
});
