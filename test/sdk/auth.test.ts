/** Authentication: a fixed token, a token provider, and the server-to-server grant with its cache. */
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  APIConnectionError,
  AuthenticationError,
  BadRequestError,
  ClientConfigurationError,
  PlatformClient,
} from '../../src/index.js';
import {
  client,
  creditcardPrice,
  defaultHosts,
  demoAuth,
  demoCredentials,
  paths,
  platform,
  READ,
  received,
  server,
  usePlatform,
} from './helpers.js';

usePlatform();
afterEach(() => {
  vi.useRealTimers();
});

/** A fetch that records the Authorization header of each request it sends. */
function recordingFetch(): { fetch: typeof fetch; authorization: (string | null)[] } {
  const authorization: (string | null)[] = [];
  return {
    authorization,
    fetch: (input, init) => {
      const request = new Request(input, init);
      authorization.push(request.headers.get('authorization'));
      return fetch(request);
    },
  };
}

function credentialsClient(options: { fetch?: typeof fetch; maxRetries?: number } = {}) {
  return new PlatformClient({
    environment: 'stage',
    hosts: defaultHosts,
    auth: demoAuth,
    retryDelay: { initial: 1, max: 5 },
    ...options,
  });
}

describe('a fixed access token', () => {
  test('is sent as Authorization: Bearer <token> on every request', async () => {
    const { access_token } = platform.mintToken({ scopes: [READ] });
    const rec = recordingFetch();
    const sdk = new PlatformClient({
      environment: 'stage',
      hosts: defaultHosts,
      auth: { accessToken: access_token },
      fetch: rec.fetch,
    });
    await sdk.products.list();
    await sdk.products.sharing({ code: 'basic-news' });
    expect(rec.authorization).toEqual([`Bearer ${access_token}`, `Bearer ${access_token}`]);
  });

  test('a 401 is not retried: the same token would be refused again', async () => {
    await expect(client({ auth: { accessToken: 'unknown' } }).products.list()).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    expect(received()).toEqual([`GET ${paths.getProducts} 401`]);
  });
});

describe('an access token provider', () => {
  test('is called once per request', async () => {
    const { access_token } = platform.mintToken({ scopes: [READ] });
    const provider = vi.fn(async () => access_token);
    const sdk = client({ auth: { accessToken: provider } });
    await sdk.products.list();
    await sdk.products.list();
    expect(provider).toHaveBeenCalledTimes(2);
  });

  test('after a 401 it is called once more and the request is retried once with the new token', async () => {
    const { access_token } = platform.mintToken({ scopes: [READ] });
    const provider = vi.fn<() => string>().mockReturnValueOnce('stale-token').mockReturnValue(access_token);
    const rec = recordingFetch();
    await client({ auth: { accessToken: provider }, fetch: rec.fetch }).products.list();
    expect(provider).toHaveBeenCalledTimes(2);
    expect(rec.authorization).toEqual(['Bearer stale-token', `Bearer ${access_token}`]);
    expect(received()).toEqual([`GET ${paths.getProducts} 401`, `GET ${paths.getProducts} 200`]);
  });

  test('a second 401 is thrown as AuthenticationError: one retry only', async () => {
    const provider = vi.fn(() => 'always-refused');
    await expect(client({ auth: { accessToken: provider } }).products.list()).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    expect(provider).toHaveBeenCalledTimes(2);
    expect(received()).toEqual([`GET ${paths.getProducts} 401`, `GET ${paths.getProducts} 401`]);
  });

  test('a provider that throws: its error, unchanged, and nothing is sent or retried', async () => {
    const failure = new Error('vault unavailable');
    const provider = vi.fn(async (): Promise<string> => {
      throw failure;
    });
    await expect(client({ auth: { accessToken: provider } }).products.list()).rejects.toBe(failure);
    expect(provider).toHaveBeenCalledTimes(1);
    expect(received()).toEqual([]);
  });

  test.each<[string, unknown]>([
    ['undefined (a missing return)', undefined],
    ['an empty string', ''],
    ['a number', 42],
    ['a token with a line break', 'provided\nsecret-token'],
  ])(
    'a provider that returns %s: ClientConfigurationError naming auth.accessToken, nothing sent or retried, the value unquoted',
    async (_, token) => {
      const provider = vi.fn(async () => token as string);
      const error = await client({ auth: { accessToken: provider } })
        .products.list()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ClientConfigurationError);
      expect(error).not.toBeInstanceOf(APIConnectionError);
      expect(error).toMatchObject({ option: 'auth.accessToken' });
      expect(String(error)).not.toContain('secret-token');
      expect(provider).toHaveBeenCalledTimes(1);
      expect(received()).toEqual([]);
    },
  );

  test.each<[string, unknown]>([
    ['a text', 'vault unavailable'],
    ['a number', 503],
    ['undefined', undefined],
  ])('a provider that throws %s (not an object): that value, unchanged, and no retry', async (_, failure) => {
    const provider = vi.fn(async (): Promise<string> => {
      throw failure;
    });
    const outcome = await client({ auth: { accessToken: provider } })
      .products.list()
      .then(
        () => ({ resolved: true }),
        (error: unknown) => ({ error }),
      );
    expect(outcome).toEqual({ error: failure });
    expect(provider).toHaveBeenCalledTimes(1);
    expect(received()).toEqual([]);
  });

  test('a provider that throws an object that is not an Error: that object, unchanged, and no retry', async () => {
    const failure = { reason: 'vault unavailable' };
    const provider = vi.fn(async (): Promise<string> => {
      throw failure;
    });
    await expect(client({ auth: { accessToken: provider } }).products.list()).rejects.toBe(failure);
    expect(provider).toHaveBeenCalledTimes(1);
    expect(received()).toEqual([]);
  });
});

describe('client credentials (the server-to-server grant)', () => {
  test('the client posts grant_type none, its id and secret, and the scopes space-separated', async () => {
    await credentialsClient().products.list();
    const grant = platform.requests.list().find((r) => r.path === paths.accessToken);
    expect(grant).toMatchObject({ method: 'POST', status: 200 });
    expect(grant?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(grant?.body ?? '')).toEqual({
      grant_type: 'none',
      client_id: demoCredentials.clientId,
      client_secret: '[redacted]', // the journal's redaction
      scope: `${READ} /external/price/w`,
    });
  });

  test('the token is fetched once and cached across calls', async () => {
    const sdk = credentialsClient();
    await sdk.products.list();
    await sdk.products.paymentPeriods({ product_code: 'premium-digital' });
    await sdk.prices.update(creditcardPrice(10));
    expect(received()).toEqual([
      `POST ${paths.accessToken} 200`,
      `GET ${paths.getProducts} 200`,
      `GET ${paths.getPaymentPeriods} 200`,
      `POST ${paths.updatePrices} 200`,
    ]);
  });

  test('the token request is retried on 503 like a read (asking again is harmless)', async () => {
    platform.faults.add({ path: paths.accessToken, status: 503, times: 1 });
    await credentialsClient().products.list();
    expect(received()).toEqual([
      `POST ${paths.accessToken} 503`,
      `POST ${paths.accessToken} 200`,
      `GET ${paths.getProducts} 200`,
    ]);
  });

  test('a token request that keeps failing fails the call without retrying the call itself', async () => {
    platform.faults.add({ path: paths.accessToken, status: 500, times: 10 });
    const error = await credentialsClient()
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 500, attempts: 3 });
    expect((error as Error).message).toMatch(
      `The client's token request (POST ${defaultHosts.auth}${paths.accessToken}) was answered 500, so the call was not sent: `,
    );
    expect(received()).toEqual([
      `POST ${paths.accessToken} 500`,
      `POST ${paths.accessToken} 500`,
      `POST ${paths.accessToken} 500`,
    ]);
  });

  test('a token request that gets no answer: APIConnectionError, its message saying so', async () => {
    platform.faults.add({ path: paths.accessToken, drop: true, times: 10 });
    const error = await credentialsClient({ maxRetries: 0 })
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(
      `The client's token request failed, so the call was not sent: POST ${defaultHosts.auth}${paths.accessToken} failed after 1 attempt: `,
    );
    expect(received(paths.getProducts)).toEqual([]);
  });

  test('concurrent calls share one token request', async () => {
    const sdk = credentialsClient();
    await Promise.all([
      sdk.products.list(),
      sdk.products.list({ product_type: 'packages' }),
      sdk.products.sharing({ code: 'premium-digital' }),
      sdk.products.paymentPeriods({ product_code: 'basic-news' }),
    ]);
    expect(received().filter((r) => r.includes(paths.accessToken))).toHaveLength(1);
  });

  test('the token is refreshed before it expires (60 s margin on a 3600 s token), not earlier', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const sdk = credentialsClient();
    await sdk.products.list();
    vi.setSystemTime(Date.now() + (3600 - 120) * 1000);
    await sdk.products.list();
    expect(received().filter((r) => r.includes(paths.accessToken))).toHaveLength(1);
    vi.setSystemTime(Date.now() + 90 * 1000); // 30 s before expiry
    await sdk.products.list();
    expect(received()).toEqual([
      `POST ${paths.accessToken} 200`,
      `GET ${paths.getProducts} 200`,
      `GET ${paths.getProducts} 200`,
      `POST ${paths.accessToken} 200`,
      `GET ${paths.getProducts} 200`,
    ]);
  });

  test('a 401 from the API forgets the token, fetches a new one and retries once', async () => {
    const sdk = credentialsClient();
    await sdk.products.list();
    platform.reset(); // the platform forgets every token it issued
    const { items } = await sdk.products.list();
    expect(items.length).toBeGreaterThan(0);
    expect(received()).toEqual([
      `GET ${paths.getProducts} 401`,
      `POST ${paths.accessToken} 200`,
      `GET ${paths.getProducts} 200`,
    ]);
  });

  test('a write refused with 401 is also retried once with a new token (it was not processed)', async () => {
    const sdk = credentialsClient();
    await sdk.products.list();
    platform.reset();
    await sdk.prices.update(creditcardPrice(11));
    expect(received()).toEqual([
      `POST ${paths.updatePrices} 401`,
      `POST ${paths.accessToken} 200`,
      `POST ${paths.updatePrices} 200`,
    ]);
  });

  test('concurrent calls refused with 401 share one new token', async () => {
    const sdk = credentialsClient();
    await sdk.products.list();
    platform.reset();
    await Promise.all([sdk.products.list(), sdk.products.list(), sdk.products.sharing({ code: 'basic-news' })]);
    expect(received().filter((r) => r.includes(paths.accessToken))).toHaveLength(1);
  });

  test('when two 401s race, only the refused token is dropped: a 401 that comes after the refresh keeps the new token', async () => {
    let releaseSharing = () => {};
    const sharingHeld = new Promise<void>((resolve) => {
      releaseSharing = resolve;
    });
    const sent: { path: string; authorization: string | null }[] = [];
    const holdingFetch: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const { pathname } = new URL(request.url);
      sent.push({ path: pathname, authorization: request.headers.get('authorization') });
      const response = await fetch(request);
      // The sharing call's 401 is handed over only after the products call has its new token.
      if (pathname === paths.getProductSharing && response.status === 401) await sharingHeld;
      return response;
    };
    const sdk = credentialsClient({ fetch: holdingFetch });
    await sdk.products.list();
    const old = sent.find((s) => s.path === paths.getProducts)?.authorization;
    platform.reset(); // the platform forgets the token: both calls below are refused
    sent.length = 0;
    const sharing = sdk.products.sharing({ code: 'basic-news' });
    await sdk.products.list();
    releaseSharing();
    await sharing;
    const fresh = sent.find((s) => s.path === paths.getProducts && s.authorization !== old)?.authorization;
    expect(fresh).toMatch(/^Bearer /);
    expect(sent.filter((s) => s.path === paths.getProductSharing).map((s) => s.authorization)).toEqual([old, fresh]);
    expect(sent.filter((s) => s.path === paths.accessToken)).toHaveLength(1);
  });

  test('a call aborted as its 401 arrives acts on nothing: it rejects with the reason, and the cached token stays', async () => {
    const controller = new AbortController();
    // The caller aborts in the moment between the platform's 401 and the SDK's reading of it.
    const abortingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (response.status === 401) controller.abort(new Error('stopped by the caller'));
      return response;
    };
    const sdk = credentialsClient({ fetch: abortingFetch });
    await sdk.products.list();
    platform.requests.clear();
    platform.faults.add({ path: paths.getProducts, status: 401, times: 1 });
    await expect(sdk.products.list({}, { signal: controller.signal })).rejects.toThrow('stopped by the caller');
    // The next call still has the token: an aborted call's answer is not read, so nothing is forgotten.
    await sdk.products.list();
    expect(received()).toEqual([`GET ${paths.getProducts} 401`, `GET ${paths.getProducts} 200`]);
  });

  test("a call's signal stops its wait for the token at once; the token request goes on for the other calls", async () => {
    // The token request waits until the test lets it through.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holdingFetch: typeof fetch = async (input, init) => {
      if (new Request(input, init).url.endsWith(paths.accessToken)) await held;
      return fetch(input, init);
    };
    const sdk = credentialsClient({ fetch: holdingFetch });
    const controller = new AbortController();
    const aborted = sdk.products.list({}, { signal: controller.signal }).catch((e: unknown) => e);
    const other = sdk.products.list();
    controller.abort(new Error('stopped by the caller'));
    // The token request is held until release() below, so only the abort can settle the call (a
    // call that went on waiting would hang until the test's timeout).
    expect(await aborted).toMatchObject({ message: 'stopped by the caller' });
    expect(received()).toEqual([]);
    release();
    await expect(other).resolves.toMatchObject({ items: expect.any(Array) });
    expect(received()).toEqual([`POST ${paths.accessToken} 200`, `GET ${paths.getProducts} 200`]);
  });

  test("a call's signal stops its wait for a provider's token; the provider's later failure is no one's", async () => {
    let fail: (error: Error) => void = () => {};
    const sdk = new PlatformClient({
      environment: 'stage',
      hosts: defaultHosts,
      auth: {
        accessToken: () =>
          new Promise<string>((_, reject) => {
            fail = reject;
          }),
      },
    });
    const controller = new AbortController();
    const call = sdk.products.list({}, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort(new Error('stopped by the caller'));
    // The provider answers only through fail() below, so only the abort can settle the call.
    expect(await call).toMatchObject({ message: 'stopped by the caller' });
    // Rejected after the call is over: not an unhandled rejection (which would fail the run).
    fail(new Error('the provider failed late'));
    // Node reports an unhandled rejection once the microtasks have run, before the next macrotask.
    await new Promise((resolve) => setImmediate(resolve));
    expect(received()).toEqual([]);
  });

  test('refreshable auth keeps the retry limit: maxRetries retries of a 503, and no more', async () => {
    platform.faults.add({ path: paths.getProducts, status: 503, times: 10 });
    await expect(credentialsClient({ maxRetries: 2 }).products.list()).rejects.toMatchObject({ status: 503 });
    expect(received()).toEqual([
      `POST ${paths.accessToken} 200`,
      `GET ${paths.getProducts} 503`,
      `GET ${paths.getProducts} 503`,
      `GET ${paths.getProducts} 503`,
    ]);
  });

  test('the one retry after a 401 is not counted against maxRetries: 401, new token, then maxRetries retries', async () => {
    const sdk = credentialsClient({ maxRetries: 2 });
    await sdk.products.list();
    platform.requests.clear();
    // Faults apply in the order added: the token is refused once, then the API keeps failing.
    platform.faults.add({ path: paths.getProducts, status: 401, times: 1 });
    platform.faults.add({ path: paths.getProducts, status: 503, times: 10 });
    await expect(sdk.products.list()).rejects.toMatchObject({ status: 503 });
    expect(received()).toEqual([
      `GET ${paths.getProducts} 401`,
      `POST ${paths.accessToken} 200`,
      `GET ${paths.getProducts} 503`,
      `GET ${paths.getProducts} 503`,
      `GET ${paths.getProducts} 503`,
    ]);
  });

  test('an API that keeps refusing the new token: AuthenticationError after one refresh', async () => {
    let calls = 0;
    server.use(
      http.get(`${defaultHosts.api}${paths.getProducts}`, () => {
        calls += 1;
        return HttpResponse.json({ code: 'invalid_token', message: 'Unknown access token' }, { status: 401 });
      }),
    );
    await expect(credentialsClient().products.list()).rejects.toBeInstanceOf(AuthenticationError);
    expect(calls).toBe(2);
    expect(received()).toEqual([`POST ${paths.accessToken} 200`, `POST ${paths.accessToken} 200`]);
  });

  test('a wrong client secret: AuthenticationError from the token endpoint, without the secret', async () => {
    const secret = 'wrong-secret-do-not-leak';
    const sdk = new PlatformClient({
      environment: 'stage',
      hosts: defaultHosts,
      auth: { ...demoAuth, clientSecret: secret },
    });
    const error = (await sdk.products.list().catch((e: unknown) => e)) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_client' });
    // Its message says that the client's token request failed, not the call, which was not sent.
    const { message: hostSaid } = error.body as { message: string };
    const said = `The client's token request (POST ${defaultHosts.auth}${paths.accessToken}) was answered 401, so the call was not sent: ${hostSaid}`;
    expect(error.message).toBe(said);
    expect(String(error.stack).split('\n')[0]).toBe(`AuthenticationError: ${said}`);
    expect(error.message).not.toContain(secret);
    expect(String(error.stack)).not.toContain(secret);
    expect(JSON.stringify({ ...error, body: error.body })).not.toContain(secret);
    // Nothing reached the API.
    expect(received()).toEqual([`POST ${paths.accessToken} 401`]);
  });

  test('a scope the client was not granted: 400 from the token endpoint', async () => {
    const sdk = new PlatformClient({
      environment: 'stage',
      hosts: defaultHosts,
      auth: {
        clientId: 'demo-reader',
        clientSecret: 'demo-reader-secret-0123456789abcdef0123456789',
        scopes: ['/external/price/w'],
      },
    });
    await expect(sdk.products.list()).rejects.toMatchObject({ constructor: BadRequestError, code: 'invalid_scope' });
  });
});

describe('client credentials, at the edges of the grant and the cache', () => {
  test('no scopes asked for: the grant names no scope, and is answered', async () => {
    const sdk = new PlatformClient({ environment: 'stage', hosts: defaultHosts, auth: { ...demoAuth, scopes: [] } });
    await sdk.products.list();
    const grant = platform.requests.list().find((r) => r.path === paths.accessToken);
    expect(grant?.status).toBe(200);
    expect(JSON.parse(grant?.body ?? '')).not.toHaveProperty('scope');
  });

  test('the cached token is used until its refresh instant, and not at it', async () => {
    const t0 = Date.parse('2030-01-01T00:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: t0 });
    const sdk = credentialsClient();
    await sdk.products.list();
    // A 3600 s token is refreshed 60 s before it expires.
    vi.setSystemTime(t0 + 3_540_000 - 1);
    await sdk.products.list();
    expect(received(paths.accessToken)).toHaveLength(1);
    vi.setSystemTime(t0 + 3_540_000);
    await sdk.products.list();
    expect(received(paths.accessToken)).toHaveLength(2);
  });

  test('after a refresh settles, the next refresh asks again rather than reusing it', async () => {
    const t0 = Date.parse('2030-01-01T00:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: t0 });
    const sdk = credentialsClient();
    await sdk.products.list();
    vi.setSystemTime(t0 + 3_600_000);
    await sdk.products.list();
    vi.setSystemTime(t0 + 7_200_000);
    await sdk.products.list();
    expect(received(paths.accessToken)).toHaveLength(3);
  });
});

describe('client.accessToken(): the token the next request would carry', () => {
  test('with client credentials: got once with the grant, the same cached token the calls send, and the platform takes it', async () => {
    const rec = recordingFetch();
    const sdk = credentialsClient({ fetch: rec.fetch });
    const token = await sdk.accessToken();
    expect(received(paths.accessToken)).toHaveLength(1);
    expect(await sdk.accessToken()).toBe(token);
    await sdk.products.list();
    expect(received(paths.accessToken)).toHaveLength(1);
    expect(rec.authorization.at(-1)).toBe(`Bearer ${token}`);
    const answer = await fetch(`${defaultHosts.api}${paths.getProducts}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status).toBe(200);
  });

  test('a fixed token is given back as it is; a provider is asked', async () => {
    const fixed = new PlatformClient({
      environment: 'stage',
      hosts: defaultHosts,
      auth: { accessToken: 'fixed-token' },
    });
    expect(await fixed.accessToken()).toBe('fixed-token');
    const provide = vi.fn(() => 'provided-token');
    const provided = new PlatformClient({ environment: 'stage', hosts: defaultHosts, auth: { accessToken: provide } });
    expect(await provided.accessToken()).toBe('provided-token');
    expect(provide).toHaveBeenCalledTimes(1);
    expect(received()).toEqual([]);
  });

  test('wrong client credentials: the grant refused, 401 AuthenticationError, no secret in its message', async () => {
    const sdk = new PlatformClient({
      environment: 'stage',
      hosts: defaultHosts,
      auth: { ...demoAuth, clientSecret: 'not-the-secret-0123456789abcdef0123456789' },
    });
    const error = await sdk.accessToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(String((error as Error).message)).not.toContain('not-the-secret');
  });
});
