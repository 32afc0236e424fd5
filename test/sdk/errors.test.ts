/** Every status of the spec's Errors table becomes its error class, carrying status, code, field and correlation id. */
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PlatformError,
  RateLimitError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { client, defaultHosts, entryOf, paths, platform, server, usePlatform } from './helpers.js';

usePlatform();

describe('an error answer becomes the class of its status family', () => {
  test.each([
    [400, 'invalid_parameter', 'price_periods[0].price', BadRequestError],
    [400, 'json_parser_error', undefined, BadRequestError],
    [401, 'invalid_token', 'authorization', AuthenticationError],
    [403, 'not_product_owner', 'product_id', PermissionDeniedError],
    [404, 'not_found', 'package_integration_code', NotFoundError],
    [409, 'invalid_state', 'user_product_id', ConflictError],
    [422, 'unprocessable', 'price', UnprocessableEntityError],
    [429, 'rate_limited', undefined, RateLimitError],
    [500, 'internal_server_error', undefined, InternalServerError],
    [503, 'unavailable', undefined, InternalServerError],
    [418, 'teapot', undefined, APIError],
  ])('%i %s', async (status, code, field, Class) => {
    server.use(
      http.post(`${defaultHosts.api}${paths.updatePrices}`, () =>
        HttpResponse.json(
          { code, field, message: `the message of ${code}`, api_correlation_id: 'corr-1' },
          { status, headers: { 'x-correlation-id': 'corr-1', 'x-extra': 'yes' } },
        ),
      ),
    );
    const error = await client()
      .prices.update({
        package_integration_code: 'PREMIUM-DIGITAL',
        price_periods: [{ subscription_type: 'recurring', payment_option: 'free', type: 'month', length: 1, price: 0 }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status, code, field, message: `the message of ${code}`, correlationId: 'corr-1' });
    expect((error as APIError).headers.get('x-extra')).toBe('yes');
    expect((error as APIError).body).toMatchObject({ code });
    expect((error as Error).name).toBe(Class.name);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'a numeric api_correlation_id, a null field and no message',
      { code: 'not_found', field: null, api_correlation_id: 12345 },
      { code: 'not_found', field: undefined, message: 'HTTP 404', correlationId: undefined },
    ],
    [
      'a numeric api_correlation_id',
      { code: 'not_found', field: 'id', message: 'No such product', api_correlation_id: 12345 },
      { code: 'not_found', field: 'id', message: 'No such product', correlationId: undefined },
    ],
    [
      'a null field',
      { code: 'not_found', field: null, message: 'No such product', api_correlation_id: 'corr-2' },
      { code: 'not_found', field: undefined, message: 'No such product', correlationId: 'corr-2' },
    ],
    [
      'no message',
      { code: 'not_found', field: 'id' },
      { code: 'not_found', field: 'id', message: 'HTTP 404', correlationId: undefined },
    ],
    [
      'a null message',
      { code: 'not_found', field: 'id', message: null, api_correlation_id: 'corr-3' },
      { code: 'not_found', field: 'id', message: 'HTTP 404', correlationId: 'corr-3' },
    ],
    [
      'a numeric code',
      { code: 404, field: 'id', message: 'No such product' },
      { code: undefined, field: 'id', message: 'No such product', correlationId: undefined },
    ],
  ])(
    'the common error body ("code (string), field (string), message (string)") with %s: each well-typed member is kept on its own',
    async (_, body, expected) => {
      server.use(http.get(`${defaultHosts.api}${paths.getProducts}`, () => HttpResponse.json(body, { status: 404 })));
      const error = await client({ maxRetries: 0 })
        .products.list()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, ...expected, body });
    },
  );

  test("the platform's correlation id is the one on the error (x-correlation-id and api_correlation_id agree)", async () => {
    platform.faults.add({ path: paths.getPaymentPeriods, status: 500 });
    const error = (await client({ maxRetries: 0 })
      .products.paymentPeriods({ product_code: 'premium-digital' })
      .catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.code).toBe('internal_server_error');
    expect(entryOf(platform, error.correlationId ?? null)).toMatchObject({
      path: paths.getPaymentPeriods,
      status: 500,
    });
    expect((error.body as { api_correlation_id: string }).api_correlation_id).toBe(error.correlationId);
  });

  test('a missing token scope: 403 insufficient_scope from the platform; nothing changes', async () => {
    const sdk = client({}, ['/external/price/w']);
    const before = platform.snapshot();
    await expect(sdk.products.list()).rejects.toMatchObject({
      constructor: PermissionDeniedError,
      code: 'insufficient_scope',
    });
    expect(platform.snapshot()).toEqual(before);
  });

  test('an unknown token: 401 invalid_token, with the header WWW-Authenticate; nothing changes', async () => {
    const sdk = client({ auth: { accessToken: 'not-a-token' } });
    const before = platform.snapshot();
    const error = (await sdk.products.list().catch((e: unknown) => e)) as AuthenticationError;
    expect(platform.snapshot()).toEqual(before);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_token', field: 'authorization' });
    expect(error.headers.get('www-authenticate')).toMatch(/invalid_token/);
    expect(error.message).not.toContain('not-a-token');
  });
});
