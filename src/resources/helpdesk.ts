import type { APIPromise } from '../api-promise.js';
import { getHelpdeskMessage, getHelpdeskMessageTemplate, getPendingMessages } from '../endpoints.js';
import type { RequestOptions } from '../request.js';
import type {
  GetHelpdeskRecordQuery,
  GetHelpdeskRecordResponse,
  GetPendingMessagesQuery,
  GetPendingMessagesResponse,
} from '../schemas/helpdesk.js';
import { APIResource } from './resource.js';

/** The helpdesk's reads (spec endpoints 8, 10 and 11). Scope `/external/helpdesk/r`. */
export class Helpdesk extends APIResource {
  /**
   * Get pending helpdesk messages (endpoint 8): the account's messages in state `pending`, each with
   * its `account` and `assignee` as they are now. 404 `not_found` (field `account_id`) for an absent account.
   */
  pendingMessages(query: GetPendingMessagesQuery, options?: RequestOptions): APIPromise<GetPendingMessagesResponse> {
    return this._client.request(getPendingMessages, query, options);
  }

  /** Get helpdesk message (endpoint 11): one message by `id`, whatever its state, with `occurrences`. 404 `not_found`. */
  message(query: GetHelpdeskRecordQuery, options?: RequestOptions): APIPromise<GetHelpdeskRecordResponse> {
    return this._client.request(getHelpdeskMessage, query, options);
  }

  /**
   * Get helpdesk message template (endpoint 10): one template by `id`, in a message's shape. The path
   * is spelled differently on production (`helpdesk_messages_templates`): the client's `environment`
   * picks it. 404 `not_found`.
   */
  template(query: GetHelpdeskRecordQuery, options?: RequestOptions): APIPromise<GetHelpdeskRecordResponse> {
    return this._client.request(getHelpdeskMessageTemplate, query, options);
  }
}
