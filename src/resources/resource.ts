import type { Requester } from '../request.js';

/** The base of every resource: it holds the client's request pipeline. */
export abstract class APIResource {
  /** @internal The client's request pipeline. */
  protected readonly _client: Requester;

  /** @internal Resources are made by the client. */
  constructor(client: Requester) {
    this._client = client;
  }
}
