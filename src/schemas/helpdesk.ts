import * as z from 'zod';
import { dateTime, id } from './common.js';

/**
 * The states of a helpdesk message this platform answers: the spec shows `pending` (endpoint 8 lists
 * those) and leaves the rest open, so answers read the state as any text, typed
 * {@link HelpdeskMessageState} or one this version does not know.
 */
export const HelpdeskMessageState = z.enum(['pending', 'in_progress', 'resolved']);
/** A state of a helpdesk message. */
export type HelpdeskMessageState = z.infer<typeof HelpdeskMessageState>;

/**
 * The types of a helpdesk message this platform answers: the platform's documentation shows
 * `request` and leaves the rest open, so answers read the type as any text, typed
 * {@link HelpdeskMessageType} or one this version does not know.
 */
export const HelpdeskMessageType = z.enum(['request', 'question', 'complaint', 'feedback']);
/** A type of a helpdesk message. */
export type HelpdeskMessageType = z.infer<typeof HelpdeskMessageType>;

/** The account embedded in a helpdesk message as its `assignee` (spec: "Helpdesk message"). */
export const HelpdeskAssignee = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  contact_email: z.string(),
  mobile_number: z.string(),
  customer_number: z.string(),
  /** e.g. `active`. */
  status: z.string(),
  verified: z.boolean(),
});
/** The account embedded as a helpdesk message's `assignee`. */
export type HelpdeskAssignee = z.infer<typeof HelpdeskAssignee>;

/** The account embedded in a helpdesk message as its `account`: the assignee's shape and `has_products`. */
export const HelpdeskAccount = HelpdeskAssignee.extend({ has_products: z.boolean() });
/** The account embedded as a helpdesk message's `account`. */
export type HelpdeskAccount = z.infer<typeof HelpdeskAccount>;

/** One comment on a helpdesk message (its shape is not shown: see docs/assumptions.md). */
export const HelpdeskComment = z.object({
  id: z.string(),
  /** The account that wrote it: the customer or an agent of the organisation. */
  author_id: z.string(),
  message: z.string(),
  created_at: dateTime,
});
/** One comment on a helpdesk message. */
export type HelpdeskComment = z.infer<typeof HelpdeskComment>;

/** A helpdesk message as a list reads it (endpoint 8): without `occurrences`. */
export const HelpdeskMessage = z.object({
  id: z.string(),
  account_id: z.string(),
  account: HelpdeskAccount,
  /** `""` when unassigned. */
  assignee_id: z.string(),
  /** `null` when unassigned. */
  assignee: HelpdeskAssignee.nullable(),
  created_at: dateTime,
  updated_at: dateTime,
  resolved_at: dateTime.nullable(),
  heading: z.string(),
  message: z.string(),
  /** e.g. `request`: a {@link HelpdeskMessageType}, or one this version does not know. */
  type: z.string() as z.ZodType<HelpdeskMessageType | (string & {})>,
  identifier: z.string(),
  /** e.g. `pending`: a {@link HelpdeskMessageState}, or one this version does not know. */
  state: z.string() as z.ZodType<HelpdeskMessageState | (string & {})>,
  comments: z.array(HelpdeskComment),
});
/** A helpdesk message as a list reads it. */
export type HelpdeskMessage = z.infer<typeof HelpdeskMessage>;

/** A helpdesk message or template as a single read gives it (endpoints 10, 11): with `occurrences`. */
export const HelpdeskMessageDetail = HelpdeskMessage.extend({ occurrences: z.number().int() });
/** A helpdesk message or template as a single read gives it. */
export type HelpdeskMessageDetail = z.infer<typeof HelpdeskMessageDetail>;

// ---------------------------------------------------------------- 8. pending messages

/** Query of endpoint 8, `GET /external/api/v1/helpdesk_messages/get_pending_messages`. */
export const GetPendingMessagesQuery = z.strictObject({ account_id: id });
/** Query of endpoint 8. */
export type GetPendingMessagesQuery = z.input<typeof GetPendingMessagesQuery>;

/** Response of endpoint 8: the account's messages in state `pending`. */
export const GetPendingMessagesResponse = z.object({ items: z.array(HelpdeskMessage) });
/** Response of endpoint 8. */
export type GetPendingMessagesResponse = z.infer<typeof GetPendingMessagesResponse>;

// ---------------------------------------------------------------- 10, 11. one template, one message

/** Query of endpoints 10 and 11: the record's `id`. */
export const GetHelpdeskRecordQuery = z.strictObject({ id });
/** Query of endpoints 10 and 11. */
export type GetHelpdeskRecordQuery = z.input<typeof GetHelpdeskRecordQuery>;

/** Response of endpoints 10 and 11. */
export const GetHelpdeskRecordResponse = z.object({ item: HelpdeskMessageDetail });
/** Response of endpoints 10 and 11. */
export type GetHelpdeskRecordResponse = z.infer<typeof GetHelpdeskRecordResponse>;
