import type { APIPromise } from '../api-promise.js';
import { getCancellationReason } from '../endpoints.js';
import { RequestValidationError } from '../errors.js';
import type { RequestOptions, ResultOf } from '../request.js';
import type { CancellationReasonResponse, GetCancellationReasonQuery } from '../schemas/cancellation-reasons.js';
import { APIResource } from './resource.js';

/** Which reasons endpoint 14 answers: internal ones too, and only those (not) visible to the end customer. */
export type CancellationReasonFilters = Omit<GetCancellationReasonQuery, 'id'>;

/**
 * Cancellation reasons (spec endpoint 14): one entry, two methods, because the answer's form
 * depends on `id` (the entry's `responseBy` types each). Scope `/external/cancellation_reason/r`.
 */
export class CancellationReasons extends APIResource {
  /**
   * The reasons, ordered by `index` (`{ items }`). Internal ones only with `include_internal: true`;
   * `visible_to_end_customer: true` keeps the ones shown to customers, `false` the others.
   *
   * The answer's form follows the query (spec: "with `id`, `{ item }`; otherwise `{ items }`"), and
   * so does the result's type: parameters whose type has an `id` (a variable such as
   * `{ id, include_internal: true }`) are typed `{ item }`, one whose `id` may be absent (optional,
   * or a wider type) either form, and one without `id` `{ items }`. One reason by id reads better as
   * {@link CancellationReasons.retrieve}.
   */
  list<P extends GetCancellationReasonQuery = CancellationReasonFilters>(
    filters?: P,
    options?: RequestOptions,
  ): APIPromise<ResultOf<typeof getCancellationReason, P>> {
    return this._client.request(getCancellationReason, filters ?? ({} as P), options);
  }

  /**
   * One reason by `id` (`{ item }`); the same filters apply. 404 `not_found` when absent or filtered
   * out. Without an `id` it rejects with a `RequestValidationError` before anything is sent (the
   * list is `list`'s).
   */
  retrieve(
    id: string,
    filters: CancellationReasonFilters = {},
    options?: RequestOptions,
  ): APIPromise<CancellationReasonResponse> {
    const query = { ...filters, id };
    return this._client.request(
      getCancellationReason,
      id === undefined
        ? Promise.reject(
            new RequestValidationError([{ code: 'custom', path: ['id'], message: 'Parameter is required', input: id }]),
          )
        : query,
      options,
    );
  }
}
