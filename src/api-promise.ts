/** The result of every SDK method: a promise of the data that also gives the raw answer. */

/** The data of an answer together with the answer itself. */
export interface APIResponse<T> {
  /** The validated body, as the method's promise resolves it. */
  data: T;
  /** The raw answer; its body has been read. */
  response: Response;
  /** The platform's `x-correlation-id` for this request; quote it in support requests. */
  correlationId: string | undefined;
}

/**
 * A `Promise` of the data of an answer: `await client.products.list()` gives the items.
 * `withResponse()` gives the same data with the raw `Response` and the correlation id.
 *
 * The data itself carries no correlation id (no hidden property is added to it): it is exactly
 * the schema's type. Use `withResponse()`, or read `correlationId` on any {@link APIError}.
 */
export class APIPromise<T> extends Promise<T> {
  readonly #result: Promise<APIResponse<T>>;
  #data: Promise<T> | undefined;

  /** Wraps the pipeline's result. The request is already under way. */
  constructor(result: Promise<APIResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#result = result;
  }

  /** `then`, `catch` and `finally` give plain promises. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The data together with the raw `Response` (its body already read: `data` is it, parsed) and the correlation id. */
  withResponse(): Promise<APIResponse<T>> {
    return this.#result;
  }

  #parse(): Promise<T> {
    this.#data ??= this.#result.then((r) => r.data);
    return this.#data;
  }

  /** Resolves with the data, as any promise. */
  // biome-ignore lint/suspicious/noThenProperty: a Promise subclass must override then
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#parse().then(onfulfilled, onrejected);
  }

  /** Handles a failure, as any promise. */
  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#parse().catch(onrejected);
  }

  /** Runs `onfinally` when settled, as any promise. */
  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parse().finally(onfinally);
  }
}

/**
 * A promise of `fn(data)` that keeps the raw answer and correlation id, for a method that turns an
 * answer into a richer result (SSO: a session token into a verified, typed result). Not exported
 * from the package.
 */
export function mapData<T, U>(promise: APIPromise<T>, fn: (data: T) => U | Promise<U>): APIPromise<U> {
  return new APIPromise(promise.withResponse().then(async (r) => ({ ...r, data: await fn(r.data) })));
}
