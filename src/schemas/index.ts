/**
 * The zod schemas of every resource, request and response of the spec, from which the SDK checks
 * what it sends and receives and the platform validates requests; and the shared error map that
 * words their issues as the platform does. Import them to validate data of your own the same way
 * (a webhook body, a stored product), or to derive a JSON Schema (`z.toJSONSchema`). Each schema's
 * type has the schema's name: `Product` is both.
 *
 * Experimental: the schemas follow the spec, but how they are composed (refinements, the helpers
 * beside them) may change in a minor release.
 *
 * @packageDocumentation
 * @module subscription-platform-sdk/schemas
 * @experimental
 */
export * from './account-change-log.js';
export * from './accounts.js';
export * from './authorization.js';
export * from './cancellation-reasons.js';
export * from './common.js';
export * from './helpdesk.js';
export * from './me.js';
export * from './me-retention.js';
export * from './orders.js';
export * from './prices.js';
export * from './products.js';
export * from './sign-on.js';
export * from './subscription-system.js';
export * from './subscriptions.js';
export * from './titles.js';
export * from './user-products.js';
