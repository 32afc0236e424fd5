/** Requests are checked before they are sent; answers are checked against the endpoint's schema. */
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { RequestValidationError, ResponseValidationError } from '../../src/index.js';
import type { PricePeriodInput } from '../../src/types.js';
import {
  client,
  creditcardPrice,
  defaultHosts,
  demoAuth,
  paths,
  platform,
  READ,
  server,
  siteClient,
  usePlatform,
} from './helpers.js';

usePlatform();

const monthly = {
  subscription_type: 'recurring',
  payment_option: 'creditcard',
  type: 'month',
  length: 1,
  price: 1,
} as const;

describe("a parameter that breaks the spec's rule is refused before anything is sent", () => {
  test.each([
    [
      'get products: id not a 24-hex id',
      () => client().products.list({ id: 'not-an-id' }),
      'id',
      'Parameter must match format (/^[a-f\\d]{24}$/i): 24 hexadecimal characters',
    ],
    [
      'get products: id together with product_code',
      // @ts-expect-error id and product_code together do not compile either
      () => client().products.list({ id: 'b00000000000000000000010', product_code: 'premium-digital' }),
      'product_code',
      'Only one of id or product_code may be given',
    ],
    [
      'get products: title_code longer than 15',
      () => client().products.list({ title_code: 'A'.repeat(16) }),
      'title_code',
      'Parameter size must be at most 15',
    ],
    [
      'get payment periods: neither product_id nor product_code',
      // @ts-expect-error neither does a query with none of them
      () => client().products.paymentPeriods({}),
      'product_id',
      'One of product_id or product_code is required',
    ],
    [
      'get product sharing: both id and code',
      // @ts-expect-error nor both
      () => client().products.sharing({ id: 'b00000000000000000000010', code: 'premium-digital' }),
      'code',
      'Only one of id or code may be given',
    ],
    [
      'update prices: payment_option not one of the list',
      () =>
        client().prices.update({
          package_integration_code: 'PREMIUM-DIGITAL',
          price_periods: [{ ...monthly, payment_option: 'cash' } as unknown as PricePeriodInput],
        }),
      'price_periods[0].payment_option',
      'Parameter must be one of: psp, creditcard, directdebit, free, invoice',
    ],
    [
      'update prices: psp without payment_option_details',
      () =>
        client().prices.update({
          package_integration_code: 'PREMIUM-DIGITAL',
          price_periods: [{ ...monthly, payment_option: 'psp' }],
        }),
      'price_periods[0].payment_option_details',
      'Parameter is required when payment_option is psp',
    ],
    [
      'update prices: package_integration_code longer than 50',
      () => client().prices.update({ ...creditcardPrice(1), package_integration_code: 'X'.repeat(51) }),
      'package_integration_code',
      'Parameter size must be at most 50',
    ],
    [
      'provision a user-product: a date-time over 35 characters (a fraction beyond nanoseconds)',
      () =>
        client().userProducts.provision({
          account_id: 'a00000000000000000000001',
          package_code: 'premium-digital',
          subscription_type: 'recurring',
          valid_from: '2030-01-01T00:00:00Z',
          valid_to: '2031-01-01T00:00:00.1234567890+01:00',
        }),
      'valid_to',
      'Parameter size must be at most 35',
    ],
    [
      'exchange a ticket: a scope over 1,024 characters',
      () =>
        siteClient().authorization.exchangeTicket({
          ticket: 'T'.repeat(43),
          scope: `${READ} `.repeat(51).padEnd(1025),
        }),
      'scope',
      'Parameter size must be at most 1024',
    ],
  ])('%s', async (_name, call, field, rule) => {
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ code: 'invalid_parameter', field, rule, message: `${field}: ${rule}` });
    expect((error as RequestValidationError).issues.length).toBeGreaterThan(0);
    expect(platform.requests.list()).toEqual([]);
  });

  test('the client-credentials grant with scopes over 1,024 characters together: the token request is refused before sending, and so the call', async () => {
    const sdk = client({ auth: { ...demoAuth, scopes: Array<string>(52).fill(READ) } });
    const error = await sdk.products.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({
      code: 'invalid_parameter',
      field: 'scope',
      rule: 'Parameter size must be at most 1024',
      message:
        "The client's token request failed, so the call was not sent: scope: Parameter size must be at most 1024",
    });
    expect(platform.requests.list()).toEqual([]);
  });

  test('a parameter the spec does not know: unknown_parameter naming it', async () => {
    const error = await client()
      .products.list({ colour: 'red' } as never)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unknown_parameter', field: 'colour', rule: 'Unknown parameter: colour' });
    expect(platform.requests.list()).toEqual([]);
  });

  test('a parameter without a name: unknown_parameter, named in quotes, as the platform words it', async () => {
    const error = await client()
      .products.list({ '': 'red' } as never)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'unknown_parameter',
      field: '',
      rule: 'Unknown parameter: ""',
    });
    expect(platform.requests.list()).toEqual([]);
  });

  test.each<[string, (sdk: ReturnType<typeof client>) => Promise<unknown>]>([
    ['null', (sdk) => sdk.subscriptionSystem.syncAddress(null as never)],
    ['a list', (sdk) => sdk.prices.update([] as never)],
    ['a text', (sdk) => sdk.authorization.generateTicket('anna' as never)],
  ])(
    'a body that is %s: refused before sending as the platform refuses it, field body, "Body must be a JSON object"',
    async (_, call) => {
      await expect(call(client())).rejects.toMatchObject({
        constructor: RequestValidationError,
        field: 'body',
        rule: 'Body must be a JSON object',
      });
      expect(platform.requests.list()).toEqual([]);
    },
  );

  test("endpoint 3 given the samples' id that breaks the id's rule: refused naming id, the parameter given", async () => {
    const query = { id: 'x' } as unknown as { product_id: string };
    await expect(client().products.paymentPeriods(query)).rejects.toMatchObject({
      constructor: RequestValidationError,
      field: 'id',
    });
    expect(platform.requests.list()).toEqual([]);
  });

  test('a scope of white space alone names none: refused before sending, as the platform refuses it (field scope)', async () => {
    const error = await siteClient()
      .authorization.exchangeTicket({ ticket: 'a-ticket-of-no-one-0123456789', scope: ' \u00a0 ' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      constructor: RequestValidationError,
      field: 'scope',
      rule: 'Parameter must name at least one scope',
    });
    expect(platform.requests.list()).toEqual([]);
  });

  test('the SDK and the platform word the same rule the same way', async () => {
    // The platform's own 400 for the same broken rule, sent with plain fetch.
    const { access_token } = platform.mintToken({ scopes: ['/external/product/r'] });
    const answer = await fetch(`${defaultHosts.api}${paths.getProducts}?id=not-an-id`, {
      headers: { authorization: `Bearer ${access_token}`, accept: 'application/json' },
    });
    const body = (await answer.json()) as { code: string; field: string; message: string };
    const error = await client()
      .products.list({ id: 'not-an-id' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: body.code, field: body.field, rule: body.message });
  });
});

describe('a number beyond the safe integers ("length: integer") is told as a number, by the SDK and the platform alike', () => {
  test.each([
    ['2^53', 'Parameter must be at most 9007199254740991', 2 ** 53],
    ['1e300', 'Parameter must be at most 9007199254740991', 1e300],
  ])('length %s: "%s"', async (_, rule, length) => {
    const body = { ...creditcardPrice(1), price_periods: [{ ...monthly, length }] };
    const error = await client()
      .prices.update(body)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ field: 'price_periods[0].length', rule });
    expect(platform.requests.list()).toEqual([]);
    // The platform's own 400 for the same body, sent with plain fetch.
    const { access_token } = platform.mintToken({ scopes: ['/external/price/w'] });
    const answer = await fetch(`${defaultHosts.api}${paths.updatePrices}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(await answer.json()).toMatchObject({
      code: 'invalid_parameter',
      field: 'price_periods[0].length',
      message: rule,
    });
  });
});

describe("an answer outside the endpoint's schema", () => {
  const malformed = () =>
    server.use(
      http.get(`${defaultHosts.api}${paths.getProducts}`, () =>
        HttpResponse.json({ items: [{ id: 42, name: 'no fields' }] }, { headers: { 'x-correlation-id': 'corr-bad' } }),
      ),
    );

  test('is a ResponseValidationError with the status, the correlation id and the issues', async () => {
    malformed();
    const error = await client()
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 200, correlationId: 'corr-bad', attempts: 1 });
    expect((error as ResponseValidationError).issues.map((i) => i.path.join('.'))).toContain('items.0.id');
    // A field of the answer, not a parameter of the request.
    expect((error as Error).message).toBe(
      'The answer of "Get products" does not match its schema at items[0].id: Field must be of type string',
    );
  });

  test('counts the attempts, the answer after a retry included', async () => {
    let answered = 0;
    server.use(
      http.get(`${defaultHosts.api}${paths.getProducts}`, () =>
        answered++ === 0
          ? HttpResponse.json({ code: 'busy', message: 'Busy' }, { status: 503 })
          : HttpResponse.json({ items: [{ id: 42 }] }),
      ),
    );
    await expect(client().products.list()).rejects.toMatchObject({ name: 'ResponseValidationError', attempts: 2 });
  });

  test('a body that is not JSON is a ResponseValidationError', async () => {
    server.use(http.get(`${defaultHosts.api}${paths.getProducts}`, () => HttpResponse.text('<html>ok</html>')));
    await expect(client().products.list()).rejects.toBeInstanceOf(ResponseValidationError);
  });

  test('with validateResponses: false, the body is returned as it came', async () => {
    malformed();
    const data = await client({ validateResponses: false }).products.list();
    expect(data).toEqual({ items: [{ id: 42, name: 'no fields' }] });
  });

  test('a field the platform adds later does not break the client: parsed leniently, typed strictly', async () => {
    server.use(
      http.get(`${defaultHosts.api}${paths.getProductSharing}`, () =>
        HttpResponse.json({
          item: [
            {
              shareable: false,
              limit: 0,
              sharing_text: null,
              sharing_title: null,
              received_product_text: null,
              received_product_title: null,
              new_field: 1,
            },
          ],
          next: null,
        }),
      ),
    );
    const answer = await client().products.sharing({ code: 'basic-news' }).withResponse();
    // The typed result holds what the type names, and nothing it does not.
    expect(answer.data.item[0]).toEqual({
      shareable: false,
      limit: 0,
      sharing_text: null,
      sharing_title: null,
      received_product_text: null,
      received_product_title: null,
    });
    // @ts-expect-error a field the type does not name is a compile error, not an unknown at run time
    expect(answer.data.item[0]?.new_field).toBeUndefined();
  });
});
