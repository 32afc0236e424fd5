/**
 * The client's sign-on options (`credentials`, `sso`, `hosts.sso`, `hosts.shop`) and the per-call
 * user token, without a platform: a custom fetch records what would be sent.
 */
import { describe, expect, test } from 'vitest';
import {
  AuthenticationError,
  PlatformClient,
  type PlatformClientOptions,
  PlatformError,
  RequestValidationError,
  SignOnConfigurationError,
} from '../../src/index.js';

const SECRET = 'site-secret-0123456789abcdef0123456789abcdef';
const hosts = { api: 'https://api.example.test', auth: 'https://auth.example.test' };
const sso = { audience: 'sso-audience', organisationId: 'org-1' };

/** A client whose fetch records each request and answers `answer` (a 200 `{}` by default). */
function recordingClient(options: Partial<PlatformClientOptions> = {}, answer = () => Response.json({})) {
  const sent: Request[] = [];
  const client = new PlatformClient({
    environment: 'stage',
    hosts,
    auth: { accessToken: 'server-token' },
    retryDelay: { initial: 1, max: 2 },
    fetch: async (input, init) => {
      sent.push(new Request(input, init));
      return answer();
    },
    ...options,
  });
  return { client, sent };
}

async function rejection(promise: Promise<unknown>): Promise<SignOnConfigurationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SignOnConfigurationError);
  expect(error).toBeInstanceOf(PlatformError);
  return error as SignOnConfigurationError;
}

describe('a method that needs a missing client option rejects before sending, naming the option', () => {
  test('exchangeTicket without credentials (auth is a fixed token): option credentials', async () => {
    const { client, sent } = recordingClient();
    const error = await rejection(client.authorization.exchangeTicket({ ticket: 'tkt-secret-value' }));
    expect(error.option).toBe('credentials');
    expect(error.message).toMatch(/"credentials"/);
    expect(error.message).not.toContain('tkt-secret-value');
    expect(sent).toHaveLength(0);
  });

  test('refreshToken without credentials: option credentials', async () => {
    const { client, sent } = recordingClient();
    expect((await rejection(client.authorization.refreshToken({ refreshToken: 'r-1' }))).option).toBe('credentials');
    expect(sent).toHaveLength(0);
  });

  test('authenticateWithTicket without sso: option sso', async () => {
    const { client, sent } = recordingClient({
      hosts: { ...hosts, sso: 'https://sso.example.test' },
      credentials: { clientId: 'site', clientSecret: SECRET },
    });
    const call = client.sso.authenticateWithTicket({ sessionId: 's', ticket: 't', ipAddress: '::1', userAgent: 'ua' });
    const error = await rejection(call);
    expect(error.option).toBe('sso');
    expect(error.message).not.toContain(SECRET);
    expect(sent).toHaveLength(0);
  });

  test('authenticateWithTicket without hosts.sso: option hosts.sso', async () => {
    const { client, sent } = recordingClient({ sso, credentials: { clientId: 'site', clientSecret: SECRET } });
    const call = client.sso.authenticateWithTicket({ sessionId: 's', ticket: 't', ipAddress: '::1', userAgent: 'ua' });
    expect((await rejection(call)).option).toBe('hosts.sso');
    expect(sent).toHaveLength(0);
  });

  test('authenticateWithTicket without credentials: option credentials', async () => {
    const { client } = recordingClient({ sso, hosts: { ...hosts, sso: 'https://sso.example.test' } });
    const call = client.sso.authenticateWithTicket({ sessionId: 's', ticket: 't', ipAddress: '::1', userAgent: 'ua' });
    expect((await rejection(call)).option).toBe('credentials');
  });

  test('authenticateWithTicket with a client secret shorter than 32 bytes: option clientSecret, not sent', async () => {
    const { client, sent } = recordingClient({
      sso,
      hosts: { ...hosts, sso: 'https://sso.example.test' },
      credentials: { clientId: 'site', clientSecret: 'short-secret' },
    });
    const call = client.sso.authenticateWithTicket({ sessionId: 's', ticket: 't', ipAddress: '::1', userAgent: 'ua' });
    const error = await rejection(call);
    expect(error.option).toBe('clientSecret');
    expect(error.message).not.toContain('short-secret');
    expect(sent).toHaveLength(0);
  });

  test('shop.marketplaceUrl without hosts.shop: option hosts.shop', () => {
    const { client } = recordingClient();
    expect(() => client.shop.marketplaceUrl({ groupId: 'g', marketplaceId: 'm', ticket: 't' })).toThrow(
      expect.objectContaining({ option: 'hosts.shop' }),
    );
  });

  test("shop.marketplaceUrl holds hosts.shop to the client's rule: plain http beyond this machine with allowInsecureHttp", () => {
    const shop = 'http://shop.compose.test:8080/shop';
    const params = { groupId: 'g', marketplaceId: 'm', ticket: 't' };
    // Without the option, the client refuses the host when it is made, as it refuses every host.
    expect(() => recordingClient({ hosts: { ...hosts, shop } })).toThrow(
      'hosts.shop: must use https (http only on a loopback host, or with allowInsecureHttp: true)',
    );
    const { client } = recordingClient({ hosts: { ...hosts, shop }, allowInsecureHttp: true });
    expect(client.shop.marketplaceUrl(params)).toBe('http://shop.compose.test:8080/shop/marketplace/g/m?at=t');
  });

  test('signOn.returnHandler without credentials throws at once, not at the first return', () => {
    const { client } = recordingClient();
    expect(() => client.signOn.returnHandler()).toThrow(SignOnConfigurationError);
  });
});

describe('credentials', () => {
  test('default to auth when auth is client credentials: the ticket grant sends them in the body', async () => {
    const { client, sent } = recordingClient({ auth: { clientId: 'site', clientSecret: SECRET, scopes: [] } }, () =>
      Response.json({ access_token: 'a', token_type: 'Bearer', expires_in: 3600, refresh_token: 'r' }),
    );
    await client.authorization.exchangeTicket({ ticket: 'tkt', scope: '/external/me/r' });
    expect(sent).toHaveLength(1);
    const request = sent[0] as Request;
    expect(request.url).toBe('https://auth.example.test/api/authorization/access_token');
    expect(request.headers.get('authorization')).toBeNull();
    expect(await request.json()).toEqual({
      grant_type: 'ticket',
      ticket: 'tkt',
      scope: '/external/me/r',
      client_id: 'site',
      client_secret: SECRET,
    });
  });

  test('the credentials option wins over auth', async () => {
    const { client, sent } = recordingClient(
      {
        auth: { clientId: 'server', clientSecret: 'server-secret', scopes: [] },
        credentials: { clientId: 'site', clientSecret: SECRET },
      },
      () => Response.json({ access_token: 'a', token_type: 'Bearer', expires_in: 3600 }),
    );
    await client.authorization.refreshToken({ refreshToken: 'r-1' });
    expect(await (sent[0] as Request).json()).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'r-1',
      client_id: 'site',
      client_secret: SECRET,
    });
  });
});

describe('the per-call accessToken (a user token)', () => {
  const user = { id: 'u', email: 'e', firstName: 'f', lastName: 'l', customerNumber: 'c' };
  const me = () => Response.json({ ...user, address: { street: 's', zipCode: 'z', city: 'c', countryCode: 'NO' } });

  test('replaces the client auth for that call only', async () => {
    let calls = 0;
    const { client, sent } = recordingClient({ auth: { accessToken: () => `server-${++calls}` } }, me);
    await client.me.get({ accessToken: 'user-token' });
    expect(sent[0]?.headers.get('authorization')).toBe('Bearer user-token');
    expect(calls).toBe(0);
  });

  test('a 401 with it is final: never retried, the client auth is never asked', async () => {
    let calls = 0;
    const { client, sent } = recordingClient({ auth: { accessToken: () => `server-${++calls}` } }, () =>
      Response.json({ code: 'invalid_token', message: 'expired' }, { status: 401 }),
    );
    await expect(client.me.get({ accessToken: 'user-token' })).rejects.toBeInstanceOf(AuthenticationError);
    expect(sent).toHaveLength(1);
    expect(calls).toBe(0);
  });

  test.each([[''], [undefined]])('given but empty (%j) it is refused before sending', async (token) => {
    const { client, sent } = recordingClient({}, me);
    const error = await client.me.get({ accessToken: token as string }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('accessToken');
    expect(sent).toHaveLength(0);
  });

  test('is not sent to the token endpoint, which takes no bearer token', async () => {
    const { client, sent } = recordingClient({ credentials: { clientId: 'site', clientSecret: SECRET } }, () =>
      Response.json({ access_token: 'a', token_type: 'Bearer', expires_in: 3600 }),
    );
    await client.authorization.exchangeTicket({ ticket: 'tkt' }, { accessToken: 'x' } as never);
    expect(sent[0]?.headers.get('authorization')).toBeNull();
  });
});
