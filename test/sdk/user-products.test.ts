/**
 * Endpoints 13 and 12 through the SDK, against the reference platform in process: a provision
 * service's user-products provisioned and updated, the spec's errors, and the checks before sending.
 */
import { describe, expect, test } from 'vitest';
import { provisionUserProduct, updateUserProduct } from '../../src/endpoints.js';
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  type PlatformClient,
  RequestValidationError,
} from '../../src/index.js';
import {
  absent,
  client,
  demoIds,
  type ErrorClass,
  expectPlatformRefusal,
  paths,
  platform,
  received,
  scopesOf,
  usePlatform,
} from './helpers.js';

usePlatform();

const { anna, frank, gus, hedda } = demoIds.accounts;
const ups = demoIds.userProducts;
const all = scopesOf(provisionUserProduct, updateUserProduct);
const sdk = () => client({}, all);

describe('13 and 12. user-products of the provision service', () => {
  test('provision, then deactivate and reactivate it with update', async () => {
    const { id } = await sdk().userProducts.provision({
      account_id: anna,
      package_code: 'premium-digital',
      subscription_type: 'recurring',
      valid_from: '2030-01-01T00:00:00Z',
      valid_to: '2031-01-01T00:00:00Z',
    });
    expect(platform.snapshot().user_products.find((u) => u.id === id)?.provision_service).toBe('demo-provision');
    expect((await sdk().userProducts.update({ account_id: anna, product_id: id, state: 'deactivated' })).id).toBe(id);
    expect(platform.snapshot().user_products.find((u) => u.id === id)?.state).toBe('deactivated');
  });

  test('another provision service owns it: PermissionDeniedError not_product_owner; nothing changes', async () => {
    const provisioner = sdk();
    const before = platform.snapshot();
    await expect(
      provisioner.userProducts.update({
        account_id: demoIds.accounts.gus,
        product_id: ups.gusOtherProvision,
        state: 'deactivated',
      }),
    ).rejects.toMatchObject({ constructor: PermissionDeniedError, code: 'not_product_owner', field: 'product_id' });
    expect(platform.snapshot()).toEqual(before);
  });

  test('a client without a provision service: BadRequestError configuration_error; nothing changes', async () => {
    const unprovisioned = client({
      auth: {
        accessToken: platform.mintToken({ scopes: all, clientId: demoIds.clients.unprovisioned.clientId }).access_token,
      },
    });
    const before = platform.snapshot();
    await expect(
      unprovisioned.userProducts.update({ account_id: hedda, product_id: ups.heddaProvisioned, state: 'activated' }),
    ).rejects.toMatchObject({ constructor: BadRequestError, code: 'configuration_error' });
    expect(platform.snapshot()).toEqual(before);
  });

  test('an update with no change is refused before anything is sent', async () => {
    await expect(
      sdk().userProducts.update({ account_id: hedda, product_id: ups.heddaProvisioned }),
    ).rejects.toMatchObject({
      constructor: RequestValidationError,
      field: 'subscription_type',
    });
    expect(received(paths.provisionUserProduct)).toEqual([]);
  });

  test('a validity window that ends when or before it starts is refused before anything is sent, field valid_to', async () => {
    for (const valid_to of ['2030-01-01T00:00:00Z', '2029-12-31T23:59:59+00:00'])
      await expect(
        sdk().userProducts.provision({
          account_id: anna,
          package_code: 'premium-digital',
          subscription_type: 'recurring',
          valid_from: '2030-01-01T00:00:00Z',
          valid_to,
        }),
      ).rejects.toMatchObject({ constructor: RequestValidationError, field: 'valid_to' });
    await expect(
      sdk().userProducts.update({
        account_id: hedda,
        product_id: ups.heddaProvisioned,
        valid_from: '2031-01-01T00:00:00Z',
        valid_to: '2030-01-01T00:00:00Z',
      }),
    ).rejects.toMatchObject({ constructor: RequestValidationError, field: 'valid_to' });
    expect(received(paths.provisionUserProduct)).toEqual([]);
  });

  test('a window shorter than a millisecond: sent when it ends after it starts, refused before sending when not', async () => {
    const provision = (valid_from: string, valid_to: string) =>
      sdk().userProducts.provision({
        account_id: anna,
        package_code: 'premium-digital',
        subscription_type: 'recurring',
        valid_from,
        valid_to,
      });
    await expect(provision('2030-01-01T00:00:00.0002Z', '2030-01-01T00:00:00.0001Z')).rejects.toMatchObject({
      constructor: RequestValidationError,
      field: 'valid_to',
    });
    expect(received(paths.provisionUserProduct)).toEqual([]);
    await expect(provision('2030-01-01T00:00:00.0001Z', '2030-01-01T00:00:00.0002Z')).resolves.toMatchObject({
      id: expect.any(String),
    });
    expect(received(paths.provisionUserProduct)).toHaveLength(1);
  });

  test('a malformed package code is refused before anything is sent', async () => {
    await expect(
      sdk().userProducts.provision({
        account_id: anna,
        package_code: 'not a code',
        subscription_type: 'recurring',
        valid_from: '2030-01-01T00:00:00Z',
        valid_to: '2031-01-01T00:00:00Z',
      }),
    ).rejects.toMatchObject({ constructor: RequestValidationError, field: 'package_code' });
    expect(received(paths.provisionUserProduct)).toEqual([]);
  });
});

describe("the spec's errors of 13 and 12: the error class, the spec's code and field", () => {
  const provisionBody = {
    account_id: anna,
    package_code: 'premium-digital',
    subscription_type: 'recurring' as const,
    valid_from: '2030-01-01T00:00:00Z',
    valid_to: '2031-01-01T00:00:00Z',
  };
  /** A refusal: its name, the refused call (given what `prepare` answered), its error, and what makes the state it needs. */
  type Row = [
    string,
    (c: PlatformClient, prepared: string | undefined) => Promise<unknown>,
    ErrorClass,
    string,
    string,
    ((c: PlatformClient) => Promise<string | undefined>)?,
  ];
  const rows: Row[] = [
    [
      '13: the account is absent',
      (c) => c.userProducts.provision({ ...provisionBody, account_id: absent.account }),
      NotFoundError,
      'not_found',
      'account_id',
    ],
    [
      '13: the package is absent',
      (c) => c.userProducts.provision({ ...provisionBody, package_code: 'no-such-package' }),
      NotFoundError,
      'not_found',
      'package_code',
    ],
    [
      '13: the account is archived',
      (c) => c.userProducts.provision({ ...provisionBody, account_id: frank }),
      ConflictError,
      'invalid_state',
      'account_id',
    ],
    [
      '13: the package provisioned twice for the same time',
      (c) => c.userProducts.provision(provisionBody),
      ConflictError,
      'already_provisioned',
      'package_code',
      async (c) => (await c.userProducts.provision(provisionBody)).id,
    ],
    [
      '12: the account is absent',
      (c) =>
        c.userProducts.update({ account_id: absent.account, product_id: ups.heddaProvisioned, state: 'activated' }),
      NotFoundError,
      'not_found',
      'account_id',
    ],
    [
      '12: the user-product is absent',
      (c) => c.userProducts.update({ account_id: hedda, product_id: absent.userProduct, state: 'activated' }),
      NotFoundError,
      'not_found',
      'product_id',
    ],
    [
      '12: a window moved into another live provisioning of the package',
      (c, next) => c.userProducts.update({ account_id: anna, product_id: next!, valid_from: '2030-06-01T00:00:00Z' }),
      ConflictError,
      'already_provisioned',
      'valid_from',
      async (c) => {
        await c.userProducts.provision(provisionBody);
        const next = { ...provisionBody, valid_from: provisionBody.valid_to, valid_to: '2032-01-01T00:00:00Z' };
        return (await c.userProducts.provision(next)).id;
      },
    ],
    [
      '12: the user-product is not controlled by this provision service',
      (c) => c.userProducts.update({ account_id: gus, product_id: ups.gusOtherProvision, state: 'deactivated' }),
      PermissionDeniedError,
      'not_product_owner',
      'product_id',
    ],
  ];

  test.each(rows)('%s', async (_, call, errorClass, code, field, prepare) => {
    const client = sdk();
    const prepared = await prepare?.(client);
    await expectPlatformRefusal(() => call(client, prepared), errorClass, code, field);
  });
});
