import type { APIPromise } from '../api-promise.js';
import { findTitle, listTitles } from '../endpoints.js';
import type { RequestOptions } from '../request.js';
import type { FindTitleQuery, FindTitleResponse, ListTitlesResponse } from '../schemas/titles.js';
import { APIResource } from './resource.js';

/** The organisation's titles (publications), as the platform's public documentation shows them (beyond the spec). */
export class Titles extends APIResource {
  /** Every title of the organisation, by code. Needs `/external/title/r`. */
  list(options?: RequestOptions): APIPromise<ListTitlesResponse> {
    return this._client.request(listTitles, {}, options);
  }

  /** One title by its code. 404 `not_found` (`title_code`). Needs `/external/title/r`. */
  find(params: FindTitleQuery, options?: RequestOptions): APIPromise<FindTitleResponse> {
    return this._client.request(findTitle, params, options);
  }
}
