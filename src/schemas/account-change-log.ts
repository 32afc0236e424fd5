import * as z from 'zod';
import { ID_PATTERN, withRule } from './common.js';

// ---------------------------------------------------------------- 4. log to accounts

/** One change-log entry to write (spec endpoint 4's table). */
export const ChangeLogEntry = z.strictObject({
  /** The account: size 1..1000 and `/^[a-f\d]{24}$/i`, as the spec's table says. */
  account_id: z.string().min(1).max(1000).regex(ID_PATTERN),
  /** One of the organisation's available categories (`availableCategories`). */
  category_type: z.string().min(1).max(100),
  message: z.string().min(1).max(1024),
  requested_by: z.string().min(1).max(100),
});
/** One change-log entry to write. */
export type ChangeLogEntry = z.input<typeof ChangeLogEntry>;

/** The most entries one request of endpoint 4 may carry. */
export const MAX_CHANGE_LOGS_PER_REQUEST = 1000;

/**
 * Request body of endpoint 4, `PUT /external/api/v1/account_change_log/log_to_accounts`: 1..1000
 * entries, each of an available category (the platform's rule, said in its description).
 */
export const LogToAccountsRequest = withRule(
  z.strictObject({
    change_logs: z.array(ChangeLogEntry).min(1).max(MAX_CHANGE_LOGS_PER_REQUEST),
  }),
  {
    description:
      "Each category_type must be one of the organisation's available categories (GET /external/api/v1/account_change_log/available_categories): one that is not refuses the whole request (400 invalid_parameter, change_logs[i].category_type), and nothing is logged",
  },
);
/** Request body of endpoint 4. */
export type LogToAccountsRequest = z.input<typeof LogToAccountsRequest>;

/**
 * A refused entry as endpoint 4 echoes it: the spec's keys, the category under the key spelled
 * `cateogory` (sic, as the platform spells it) and the time it was processed.
 */
export const ChangeLogPayload = z.object({
  account_id: z.string(),
  created_at: z.string(),
  message: z.string(),
  cateogory: z.string(),
  requested_by: z.string(),
});
/** A refused entry as endpoint 4 echoes it. */
export type ChangeLogPayload = z.infer<typeof ChangeLogPayload>;

/** One refused entry of endpoint 4: the entry as `payload` and a readable `error_message`. */
export const ChangeLogError = z.object({ payload: ChangeLogPayload, error_message: z.string() });
/** One refused entry of endpoint 4. */
export type ChangeLogError = z.infer<typeof ChangeLogError>;

/**
 * Response of endpoint 4, always HTTP 207 when the request is processed: `ok` lists the account of
 * each logged entry (in request order), `errors` each refused entry. Partial success is possible.
 */
export const LogToAccountsResponse = z.object({ ok: z.array(z.string()), errors: z.array(ChangeLogError) });
/** Response of endpoint 4. */
export type LogToAccountsResponse = z.infer<typeof LogToAccountsResponse>;

// ---------------------------------------------------------------- 4. available categories

/** A category of change-log entries an organisation accepts: the `category_type` to send and its name. */
export const ChangeLogCategory = z.object({ category_type: z.string(), name: z.string() });
/** A change-log category. */
export type ChangeLogCategory = z.infer<typeof ChangeLogCategory>;

/**
 * Response of `GET /external/api/v1/account_change_log/available_categories` (the spec names the path;
 * its shape is not shown: see docs/assumptions.md).
 */
export const AvailableCategoriesResponse = z.object({ items: z.array(ChangeLogCategory) });
/** Response of the available-categories endpoint. */
export type AvailableCategoriesResponse = z.infer<typeof AvailableCategoriesResponse>;
