/**
 * The authorization API through the SDK: generate ticket (endpoint 22, both forms), exchange ticket
 * and refresh (endpoint 23), and the signed-in user (endpoint 24), against the reference platform.
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  PermissionDeniedError,
  type PlatformClient,
  RequestValidationError,
} from '../../src/index.js';
import type { AccessTokenResponse, GenerateTicketRequest } from '../../src/types.js';
import {
  absent,
  demoIds,
  demoShop,
  demoSite,
  paths,
  platform,
  received,
  requestsTo,
  siteClient,
  usePlatform,
} from './helpers.js';

usePlatform();

const { anna, bo, carl } = demoIds.accounts;
const TICKET_PATH = paths.generateTicket;
const TOKEN_PATH = paths.accessToken;
const ME_PATH = paths.getSignedInUser;

/** A ticket for `accountId`, bound to the site itself (form a), and its exchange for the user's tokens. */
async function userTokens(site: PlatformClient, accountId: string = anna): Promise<AccessTokenResponse> {
  const { ticket } = await site.authorization.generateTicket({ accountId, clientId: demoSite.clientId });
  return site.authorization.exchangeTicket({ ticket });
}

/**
 * The demo site's client with its server-to-server token (form a) already issued, so that a refusal's
 * unchanged state can be taken with the token in it (the client-credentials grant would mint one).
 */
function tokenedSite(): PlatformClient {
  const { access_token } = platform.mintToken({ scopes: ['/api/authorization/ticket'], clientId: demoSite.clientId });
  return siteClient({ auth: { accessToken: access_token } });
}

async function failure(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e as Record<string, unknown>,
  );
}

describe('generate ticket (endpoint 22)', () => {
  test('form (a): a server-to-server token names the account and the destination client', async () => {
    const site = siteClient();
    const { ticket } = await site.authorization.generateTicket({ accountId: anna, clientId: demoShop.clientId });
    expect(ticket).toEqual(expect.any(String));
    expect(ticket.length).toBeGreaterThan(20);
    // The client-credentials grant first, then the ticket, with the bearer token.
    expect(received(TOKEN_PATH, TICKET_PATH)).toEqual([`POST ${TOKEN_PATH} 200`, `POST ${TICKET_PATH} 200`]);
    expect(requestsTo(platform, TICKET_PATH)).toMatchObject([
      { headers: { authorization: expect.stringMatching(/^Bearer /) } },
    ]);
  });

  test('form (b): the user token is passed per call; the body names only the shop client', async () => {
    const site = siteClient();
    const tokens = await userTokens(site);
    const { ticket } = await site.authorization.generateTicket(
      { client_id: demoShop.clientId },
      { accessToken: tokens.access_token },
    );
    // The ticket is the user's, for the shop: the shop's client can use it, the site cannot.
    const shop = siteClient({ credentials: demoIds.clients.shop });
    const shopTokens = await shop.authorization.exchangeTicket({ ticket });
    const user = await shop.me.get({ accessToken: shopTokens.access_token });
    expect(user.id).toBe(anna);
  });

  test('400 invalid_parameter: an unknown account id; no ticket made', async () => {
    const site = tokenedSite();
    const before = platform.snapshot();
    const error = await failure(
      site.authorization.generateTicket({ accountId: absent.account, clientId: demoShop.clientId }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_parameter', field: 'accountId' });
    expect(platform.snapshot()).toEqual(before);
  });

  test('400 invalid_parameter: an unknown client id; no ticket made', async () => {
    const site = tokenedSite();
    const before = platform.snapshot();
    const error = await failure(site.authorization.generateTicket({ accountId: anna, clientId: 'no-such-client' }));
    expect(error).toMatchObject({ status: 400, code: 'invalid_parameter', field: 'clientId' });
    expect(platform.snapshot()).toEqual(before);
  });

  test('400: form (b) sent with a server-to-server token; no ticket made', async () => {
    const site = tokenedSite();
    const before = platform.snapshot();
    const error = await failure(site.authorization.generateTicket({ client_id: demoShop.clientId }));
    expect(error).toMatchObject({ status: 400, field: 'client_id' });
    expect(platform.snapshot()).toEqual(before);
  });

  test('400 account_not_active: no ticket for an account that is not active', async () => {
    const site = tokenedSite();
    const before = platform.snapshot();
    const error = await failure(site.authorization.generateTicket({ accountId: carl, clientId: demoShop.clientId }));
    expect(error).toMatchObject({ status: 400, code: 'account_not_active' });
    expect(platform.snapshot()).toEqual(before);
  });

  test('a malformed account id is refused before sending', async () => {
    const error = await failure(
      siteClient().authorization.generateTicket({ accountId: 'x', clientId: demoShop.clientId }),
    );
    expect(error).toMatchObject({ name: 'RequestValidationError' });
    expect(received(TOKEN_PATH, TICKET_PATH)).toEqual([]);
  });

  test('the two forms ("(a) ... body { accountId, clientId }", "(b) ... body carrying only ... client_id") do not mix: tsc refuses the other form\'s key, and the SDK refuses it before sending', async () => {
    const site = siteClient();
    // Form (b) goes with a user token, given per call.
    const { access_token: userToken } = platform.mintToken({
      scopes: ['/api/authorization/ticket'],
      accountId: anna,
      clientId: demoSite.clientId,
    });
    const before = platform.snapshot();
    const mixed = { accountId: anna, clientId: demoShop.clientId, client_id: demoShop.clientId };
    // @ts-expect-error form (a) with form (b)'s client_id
    const error = await failure(site.authorization.generateTicket(mixed));
    expect(error).toMatchObject({ name: 'RequestValidationError', code: 'unknown_parameter', field: 'client_id' });
    // @ts-expect-error form (b) with form (a)'s accountId
    const formBWithAccount: GenerateTicketRequest = { client_id: demoShop.clientId, accountId: anna };
    const withAccount = await failure(site.authorization.generateTicket(formBWithAccount, { accessToken: userToken }));
    expect(withAccount).toBeInstanceOf(RequestValidationError);
    expect(withAccount).toMatchObject({ code: 'unknown_parameter', field: 'accountId' });
    // @ts-expect-error form (b) with form (a)'s clientId
    const formBWithClientId: GenerateTicketRequest = { client_id: demoShop.clientId, clientId: demoShop.clientId };
    const withClientId = await failure(
      site.authorization.generateTicket(formBWithClientId, { accessToken: userToken }),
    );
    expect(withClientId).toBeInstanceOf(RequestValidationError);
    expect(withClientId).toMatchObject({ code: 'unknown_parameter', field: 'clientId' });
    expectTypeOf<{ client_id: string; clientId: string }>().not.toExtend<GenerateTicketRequest>();
    expectTypeOf<{ accountId: string; clientId: string }>().toExtend<GenerateTicketRequest>();
    expectTypeOf<{ client_id: string }>().toExtend<GenerateTicketRequest>();
    expect(received()).toEqual([]);
    expect(platform.snapshot()).toEqual(before);
  });

  test('401: an invalid access token (form b), and it is not retried', async () => {
    const before = platform.snapshot();
    const error = await failure(
      siteClient().authorization.generateTicket({ client_id: demoShop.clientId }, { accessToken: 'not-a-token' }),
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(received(TOKEN_PATH, TICKET_PATH)).toEqual([`POST ${TICKET_PATH} 401`]);
    expect(platform.snapshot()).toEqual(before);
  });
});

describe('exchange ticket for access token (endpoint 23, grant ticket)', () => {
  test('answers the access token response; the token reads the ticket user (endpoint 24)', async () => {
    const site = siteClient();
    const tokens = await userTokens(site);
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(tokens.access_token).toEqual(expect.any(String));
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const exchange = requestsTo(platform, TOKEN_PATH).filter((e) => JSON.parse(e.body ?? '{}').grant_type === 'ticket');
    expect(exchange).toHaveLength(1);
    expect(JSON.parse(exchange[0]?.body ?? '{}')).toMatchObject({ client_id: demoSite.clientId });
    expect(exchange[0]?.headers.authorization).toBeUndefined();
  });

  test('a ticket is single-use: the second exchange is refused with 401 invalid_grant', async () => {
    const site = siteClient();
    const { ticket } = await site.authorization.generateTicket({ accountId: anna, clientId: demoSite.clientId });
    await site.authorization.exchangeTicket({ ticket });
    const error = await failure(site.authorization.exchangeTicket({ ticket }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_grant', field: 'ticket' });
    expect(String(error.message)).not.toContain(ticket);
  });

  test('on reuse the token of the first exchange is revoked: me.get then answers 401 (RFC 6749 10.5)', async () => {
    const site = siteClient();
    const { ticket } = await site.authorization.generateTicket({ accountId: anna, clientId: demoSite.clientId });
    const first = await site.authorization.exchangeTicket({ ticket });
    expect((await site.me.get({ accessToken: first.access_token })).id).toBe(anna);
    await failure(site.authorization.exchangeTicket({ ticket }));
    const error = await failure(site.me.get({ accessToken: first.access_token }));
    expect(error).toBeInstanceOf(AuthenticationError);
  });

  test('a wrong client secret: 401 invalid_client, and the ticket stays usable by its client', async () => {
    const site = siteClient();
    const { ticket } = await site.authorization.generateTicket({ accountId: anna, clientId: demoSite.clientId });
    const wrong = siteClient({
      credentials: { clientId: demoSite.clientId, clientSecret: 'wrong-secret-0123456789abcdef0123456789' },
    });
    const before = platform.snapshot();
    const error = await failure(wrong.authorization.exchangeTicket({ ticket }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_client' });
    expect(String(error.message)).not.toContain('wrong-secret');
    expect(platform.snapshot()).toEqual(before);
    await expect(site.authorization.exchangeTicket({ ticket })).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  test('a ticket bound to another client is refused (401 invalid_grant)', async () => {
    const site = siteClient();
    const { ticket } = await site.authorization.generateTicket({ accountId: anna, clientId: demoShop.clientId });
    const before = platform.snapshot();
    await expect(site.authorization.exchangeTicket({ ticket })).rejects.toMatchObject({ code: 'invalid_grant' });
    // No token minted, and the ticket is left to its own client.
    expect(platform.snapshot()).toEqual(before);
  });

  test('an unknown ticket: 401 invalid_grant; the exchange is a write and is not retried', async () => {
    const site = siteClient();
    const before = platform.snapshot();
    const error = await failure(site.authorization.exchangeTicket({ ticket: 'no-such-ticket' }));
    expect(error).toMatchObject({ status: 401, code: 'invalid_grant' });
    expect(received(TOKEN_PATH)).toEqual([`POST ${TOKEN_PATH} 401`]);
    expect(platform.snapshot()).toEqual(before);
  });

  test('scope asks for the user token scopes; one outside them is 400 invalid_scope', async () => {
    const site = siteClient();
    const { ticket } = await site.authorization.generateTicket({ accountId: anna, clientId: demoSite.clientId });
    const tokens = await site.authorization.exchangeTicket({ ticket, scope: '/external/me/r' });
    expect(tokens.scope).toBe('/external/me/r');
    const other = await site.authorization.generateTicket({ accountId: anna, clientId: demoSite.clientId });
    const before = platform.snapshot();
    const error = await failure(
      site.authorization.exchangeTicket({ ticket: other.ticket, scope: '/external/price/w' }),
    );
    expect(error).toMatchObject({ status: 400, code: 'invalid_scope' });
    expect(platform.snapshot()).toEqual(before);
  });
});

describe('the access token response the SDK accepts (endpoint 23)', () => {
  test('token_type in any letter case, and an answer without refresh_token or scope, read as they come', async () => {
    const answer = { access_token: 'user-token', token_type: 'bearer', expires_in: 60 };
    const site = siteClient({
      credentials: { clientId: demoSite.clientId, clientSecret: demoSite.clientSecret },
      fetch: async () =>
        new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } }),
    });
    expect(await site.authorization.exchangeTicket({ ticket: 'T'.repeat(43) })).toEqual(answer);
  });
});

describe('refresh a user token (endpoint 23, grant refresh_token)', () => {
  test('a refresh token gives a new access token for the same user', async () => {
    const site = siteClient();
    const tokens = await userTokens(site, bo);
    const fresh = await site.authorization.refreshToken({ refreshToken: tokens.refresh_token ?? '' });
    expect(fresh.access_token).not.toBe(tokens.access_token);
    expect((await site.me.get({ accessToken: fresh.access_token })).id).toBe(bo);
  });

  test('a refresh token is usable once: the second use is 401 invalid_grant', async () => {
    const site = siteClient();
    const tokens = await userTokens(site);
    await site.authorization.refreshToken({ refreshToken: tokens.refresh_token ?? '' });
    const error = await failure(site.authorization.refreshToken({ refreshToken: tokens.refresh_token ?? '' }));
    expect(error).toMatchObject({ status: 401, code: 'invalid_grant', field: 'refresh_token' });
  });

  test('an unknown refresh token: 401 invalid_grant, and no token minted', async () => {
    const site = siteClient();
    const before = platform.snapshot();
    await expect(site.authorization.refreshToken({ refreshToken: 'nope' })).rejects.toMatchObject({
      status: 401,
      code: 'invalid_grant',
    });
    expect(platform.snapshot()).toEqual(before);
  });
});

describe('the grants refuse parameters that are no object, or carry a key they do not read, before sending', () => {
  test.each<[string, (site: PlatformClient) => Promise<unknown>, Record<string, unknown>]>([
    ['exchangeTicket(undefined)', (site) => site.authorization.exchangeTicket(undefined as never), { field: '' }],
    ['refreshToken(null)', (site) => site.authorization.refreshToken(null as never), { field: '' }],
    [
      'exchangeTicket with a key it does not read',
      (site) => site.authorization.exchangeTicket({ ticket: 't', scopes: '/external/me/r' } as never),
      { field: 'scopes', code: 'unknown_parameter' },
    ],
    [
      'refreshToken with the wire name beside its own',
      (site) => site.authorization.refreshToken({ refreshToken: 'r', refresh_token: 'r' } as never),
      { field: 'refresh_token', code: 'unknown_parameter' },
    ],
  ])('%s: RequestValidationError', async (_, call, expected) => {
    const error = await failure(call(siteClient()));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject(expected);
    expect(received(TOKEN_PATH)).toEqual([]);
  });
});

describe("the grants' parameters are named as the caller spelled them, not by the wire's names", () => {
  test.each<[string, (site: PlatformClient) => Promise<unknown>, string, string]>([
    [
      "refreshToken({ refreshToken: '' })",
      (site) => site.authorization.refreshToken({ refreshToken: '' }),
      'refreshToken',
      'Parameter size must be at least 1',
    ],
    [
      'refreshToken({})',
      (site) => site.authorization.refreshToken({} as never),
      'refreshToken',
      'Parameter is required',
    ],
    [
      'refreshToken({ refreshToken: 5 })',
      (site) => site.authorization.refreshToken({ refreshToken: 5 } as never),
      'refreshToken',
      'Parameter must be of type string',
    ],
    [
      "exchangeTicket({ ticket: '' })",
      (site) => site.authorization.exchangeTicket({ ticket: '' }),
      'ticket',
      'Parameter size must be at least 1',
    ],
    [
      "exchangeTicket({ ticket, scope: '' })",
      (site) => site.authorization.exchangeTicket({ ticket: 't', scope: '' }),
      'scope',
      'Parameter size must be at least 1',
    ],
  ])(
    '%s: RequestValidationError naming the parameter as the caller spelled it, nothing sent',
    async (_, call, field, rule) => {
      const error = await failure(call(siteClient()));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toMatchObject({ code: 'invalid_parameter', field, rule, message: `${field}: ${rule}` });
      expect(received(TOKEN_PATH)).toEqual([]);
    },
  );
});

test("parameters refused with options refused too: the parameters' refusal, none left unhandled", async () => {
  const refused = siteClient().authorization.exchangeTicket({ ticket: 't', foo: 1 } as never, { timeout: -1 });
  await expect(refused).rejects.toMatchObject({ constructor: RequestValidationError, field: 'foo' });
  expect(received(TOKEN_PATH)).toEqual([]);
});

describe('get signed-in user (endpoint 24)', () => {
  test("answers the token user's account as the spec spells it", async () => {
    const site = siteClient();
    const tokens = await userTokens(site);
    const user = await site.me.get({ accessToken: tokens.access_token });
    expect(user).toEqual({
      id: anna,
      email: 'anna@example.com',
      firstName: 'Anna',
      lastName: 'Andersson',
      customerNumber: 'C1001',
      address: { street: 'Storgatan 1', zipCode: '111 22', city: 'Stockholm', countryCode: 'SE' },
    });
    expect(received(ME_PATH)).toEqual([`GET ${ME_PATH} 200`]);
  });

  test('a parameter besides accessToken (a typo, a wire name) is refused as every method refuses one: unknown_parameter naming it, nothing sent', async () => {
    const tokens = await userTokens(siteClient());
    for (const [params, field] of [
      [{ accessToken: tokens.access_token, foo: 1 }, 'foo'],
      [{ accessToken: tokens.access_token, access_token: tokens.access_token }, 'access_token'],
    ] as const) {
      const error = await failure(siteClient().me.get(params as never));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toMatchObject({
        code: 'unknown_parameter',
        field,
        message: `${field}: Unknown parameter: ${field}`,
      });
    }
    expect(received(ME_PATH)).toEqual([]);
  });

  test('401: an invalid or expired token', async () => {
    const before = platform.snapshot();
    const error = await failure(siteClient().me.get({ accessToken: 'not-a-token' }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401 });
    expect(received(ME_PATH)).toEqual([`GET ${ME_PATH} 401`]);
    expect(platform.snapshot()).toEqual(before);
  });

  test('401 after the token expires on the platform clock', async () => {
    const site = siteClient();
    const tokens = await userTokens(site);
    platform.clock.advance(3601);
    await expect(site.me.get({ accessToken: tokens.access_token })).rejects.toBeInstanceOf(AuthenticationError);
  });

  test('403 identity_required: a server-to-server token is tied to no user', async () => {
    const { access_token } = platform.mintToken({ scopes: ['/external/me/r'] });
    const before = platform.snapshot();
    const error = await failure(siteClient().me.get({ accessToken: access_token }));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'identity_required' });
    expect(platform.snapshot()).toEqual(before);
  });
});
