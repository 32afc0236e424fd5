import type * as z from 'zod';
import { RequestValidationError } from '../errors.js';
import type { Requester } from '../request.js';
import { platformErrorMap } from '../schemas/common.js';

/** The base of every resource: it holds the client's request pipeline. */
export abstract class APIResource {
  /** @internal The client's request pipeline. */
  protected readonly _client: Requester;

  /** @internal Resources are made by the client. */
  constructor(client: Requester) {
    this._client = client;
  }
}

/**
 * Refuses parameters that the method reads by names of its own (not the wire's) when they are no
 * object, or carry a key `keys` does not name (`unknown_parameter`, as the endpoint refuses one), or
 * a value `keys` refuses, named as the caller spelled it: a `RequestValidationError` before anything
 * is sent.
 */
export function checkParams(keys: z.ZodType, params: unknown): void {
  const checked = keys.safeParse(params, { error: platformErrorMap });
  if (!checked.success) throw new RequestValidationError(checked.error.issues);
}
