import * as z from 'zod';

/** Record identifiers: 24 hexadecimal characters (spec: "Resources and their fields"). */
export const ID_PATTERN = /^[a-f\d]{24}$/i;
/**
 * The spec's pattern of codes: product and title codes (endpoint 2), package codes (13), product codes
 * (20) and the external system's customer numbers (18, 19).
 */
export const CODE_PATTERN = /^[a-zA-Z-_0-9]+$/;

/**
 * What a value that is no record id is told, on both sides: the platform's documented wording
 * ("Parameter must match format (/^[a-f\d]{24}$/)", with the spec's `i`), then what it means.
 */
export const ID_RULE = `Parameter must match format (${ID_PATTERN}): 24 hexadecimal characters`;

/**
 * A record id as the spec writes it: exactly 24 hexadecimal characters, `/^[a-f\d]{24}$/i` (where the
 * spec also says "up to 24", the pattern allows no other length).
 */
export const id = z.string().max(24, ID_RULE).regex(ID_PATTERN);

/**
 * A product, package or campaign code: 1..50 characters, `/^[a-zA-Z-_0-9]+$/` (the spec's rule in
 * endpoints 2, 13 and 20; a code sent to 3, 9, 15 and 17 is held to it too).
 */
export const productCode = z.string().min(1).max(50).regex(CODE_PATTERN);

/**
 * An e-mail address: a local part of RFC 5322's atoms (letters, digits, `!#$%&'*+-/=?^_{|}~` and the
 * backquote) joined by single dots, `@`, then a domain of two or more labels (letters
 * and digits, with hyphens inside), the last of letters alone, at least two, or an internationalised
 * one in its ASCII form (`xn--p1ai`); RFC 6531's characters beyond ASCII count as letters in both
 * parts (`åsa@exempel.se`). Never white space (JavaScript's
 * `\s`) nor a control character, a lone surrogate, a quoted local part or an address literal. Each
 * character has one way to match: the dots, `@` and hyphens separate, so the time is linear.
 */
export const EMAIL_ADDRESS_PATTERN =
  /^(?:[!#-'*+\-/-9=?A-Z^-~]|(?![\s\p{Cc}\p{Cs}])\P{ASCII})+(?:\.(?:[!#-'*+\-/-9=?A-Z^-~]|(?![\s\p{Cc}\p{Cs}])\P{ASCII})+)*@(?:(?:[A-Za-z\d]|(?![\s\p{Cc}\p{Cs}])\P{ASCII})+(?:-+(?:[A-Za-z\d]|(?![\s\p{Cc}\p{Cs}])\P{ASCII})+)*\.)+(?:xn--[A-Za-z\d]+(?:-[A-Za-z\d]+)*|(?:[A-Za-z]|(?![\s\p{Cc}\p{Cs}])\P{ASCII}){2,})$/u;

/**
 * An e-mail address as the platform takes one ({@link EMAIL_ADDRESS_PATTERN}), at most 254
 * characters; in the OpenAPI document `format: idn-email` (RFC 6531), as `email` is ASCII alone.
 */
export const emailAddress = z.email({ pattern: EMAIL_ADDRESS_PATTERN }).max(254).meta({ format: 'idn-email' });

/**
 * An authorization ticket as the SDK sends it and the platform takes it: 1 to 512 characters (the
 * spec gives no size; the platform's are 43). One rule for every input that carries a ticket: the
 * ticket grant (23), SSO authenticatewithticket's `at` (21) and the marketplace URL's `at` (25).
 */
export const ticket = z.string().min(1).max(512);

/** An ISO 8601 date-time with offset. */
export const dateTime = z.iso.datetime({ offset: true });

/**
 * A date-time a request gives (endpoints 9, 12, 13): {@link dateTime}, of at most 35 characters, a
 * second's fraction to nanoseconds and an offset (`2024-01-01T00:00:00.123456789+01:00`). The format
 * alone takes a fraction of any length, which the platform kept as given.
 */
export const givenDateTime = dateTime.max(35);

/**
 * A boolean query parameter. Typed callers pass a boolean; on the wire it is the text
 * `true` or `false`, which the platform parses with the same schema.
 */
export const queryBoolean = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/**
 * Every error `code` the platform answers: the spec's (Errors), then the ones this package's
 * platform adds where the spec shows none (docs/assumptions.md).
 */
export const ERROR_CODES = [
  // The spec's table.
  'invalid_parameter',
  'json_parser_error',
  'invalid_content_type_error',
  'unknown_parameter',
  'configuration_error',
  'not_product_owner',
  'not_found',
  'does_not_exist',
  'account_not_found',
  'user_product_not_platform_provisioned',
  'invalid_state',
  'user_product_not_belong_to_account',
  'internal_server_error',
  // Authentication and authorization (RFC 6750, RFC 6749), where the spec shows none.
  'invalid_token',
  'insufficient_scope',
  'identity_required',
  'invalid_client',
  'invalid_grant',
  'invalid_scope',
  'unsupported_grant_type',
  'account_not_active',
  'invalid_request_token',
  // Choices of this package where the spec shows no code (docs/assumptions.md).
  'already_provisioned',
  'not_recurring',
  'not_platform_provisioned',
  'not_active',
  'already_on_campaign',
  'not_eligible',
  'not_cancellable',
  'sync_in_progress',
  // The platform's routing, limits and test tools.
  'method_not_allowed',
  'payload_too_large',
  'host_not_allowed',
  'cross_site_request',
  'headers_too_large',
  'request_timeout',
  'malformed_request',
  'expectation_failed',
  'not_implemented',
  'injected_fault',
  // The standalone server's namespaces and state files.
  'namespace_limit_reached',
  'namespace_not_open',
  'state_file_invalid',
  'busy',
] as const;

/** An error `code` the platform is known to answer. */
export type KnownErrorCode = (typeof ERROR_CODES)[number];

/**
 * An error `code`: one of {@link KnownErrorCode}, or a code this version does not know yet (a newer
 * platform may add some). `switch (err.code)` autocompletes the known ones.
 */
export type ErrorCode = KnownErrorCode | (string & {});

/**
 * The common error body of the API (spec: "Errors"). `field` names the offending field, or is
 * `unspecified_field` when none is at fault (as the spec's endpoint 5 writes it).
 */
export const ErrorBody = z.object({
  code: z.string() as z.ZodType<ErrorCode>,
  field: z
    .string()
    .describe('The offending field (`price_periods[0].length`), or `unspecified_field` when none is at fault'),
  message: z.string(),
  api_correlation_id: z.string().optional(),
});
/** The common error body of the API. */
export type ErrorBody = z.infer<typeof ErrorBody>;

/** `{ id }`: the answer of most writes. */
export const IdResponse = z.object({ id: z.string() });
/** `{ id }`: the answer of most writes. */
export type IdResponse = z.infer<typeof IdResponse>;

/**
 * Exactly one of the keys `K` of `T` (the others absent), and the rest of `T` as it is:
 * `OneOf<{ id?: string; code?: string }, 'id' | 'code'>` is `{ id: string; code?: never } | { code: string; id?: never }`.
 */
export type OneOf<T, K extends keyof T> = {
  [P in K]-?: Omit<T, K> & { [Q in P]-?: Exclude<T[Q], undefined> } & { [Q in Exclude<K, P>]?: never };
}[K];

/**
 * Either of two forms of a body, each with the other's keys forbidden (`?: never`): TypeScript lets
 * a key of one member of a plain union through on an object of the other (it checks excess keys
 * against the union's keys together), so a body that mixes the forms would compile.
 */
export type EitherForm<A, B> =
  | (A & { [K in Exclude<keyof B, keyof A>]?: never })
  | (B & { [K in Exclude<keyof A, keyof B>]?: never });

/** At most one of the keys `K` of `T`: {@link OneOf}, or none of them. */
export type AtMostOne<T, K extends keyof T> = OneOf<T, K> | (Omit<T, K> & { [Q in K]?: never });

function listOf(keys: readonly string[]): string {
  return keys.length === 1 ? keys[0]! : `${keys.slice(0, -1).join(', ')} or ${keys[keys.length - 1]}`;
}

/** Options of {@link exactlyOne} and {@link atMostOne}. */
export interface OneOfOptions {
  /** How messages name the keys, when not every key should be named (an alias). Default: every key. */
  label?: string;
}

/**
 * A rule of a schema as its JSON Schema says it: the sentence that says it (`description`), and the
 * keywords that hold it where JSON Schema can (`oneOf` of `required` lists, `if`/`then`/`else`).
 * `z.toJSONSchema` writes a schema's metadata (`.meta()`) and drops its `.check()`s, so a rule
 * checked in code is written beside its check too, and the OpenAPI document (`mock/openapi.ts`) says it.
 */
export type JsonSchemaRule = Readonly<Record<string, unknown>> & { readonly description: string };

/** `required: [key]` for each key: the members of a `oneOf` or `anyOf` over which keys are given. */
function requiredEach(keys: readonly string[]): { required: string[] }[] {
  return keys.map((k) => ({ required: [k] }));
}

/** `schema` with `rule` in its metadata: its sentence, and the JSON Schema keywords that hold it. */
export function withRule<S extends z.ZodType>(schema: S, rule: JsonSchemaRule): S {
  return schema.meta(rule);
}

/** The JSON Schema of "at most one of `keys`": no two of them together. */
function notTwoOf(keys: readonly string[]): Record<string, unknown> {
  const pairs = keys.flatMap((a, i) => keys.slice(i + 1).map((b) => ({ required: [a, b] })));
  return pairs.length === 1 ? pairs[0]! : { anyOf: pairs };
}

function oneOfCheck<S extends z.ZodObject>(schema: S, keys: readonly string[], required: boolean, label?: string): S {
  const names = label ?? listOf(keys);
  const description = `${required ? 'Exactly' : 'At most'} one of ${names}`;
  const rule = required ? { description, oneOf: requiredEach(keys) } : { description, not: notTwoOf(keys) };
  const checked = schema.check((ctx) => {
    const value = ctx.value as Record<string, unknown>;
    const given = keys.filter((k) => value[k] !== undefined);
    if (given.length === 0 && required) {
      ctx.issues.push({ code: 'custom', input: value, path: [keys[0]!], message: `One of ${names} is required` });
    } else if (given.length > 1) {
      ctx.issues.push({
        code: 'custom',
        input: value,
        path: [given[1]!],
        message: `Only one of ${names} may be given`,
      });
    }
  });
  return withRule(checked, rule);
}

/**
 * The spec's "one of ... is required; not together": `schema` with exactly one of `keys` given. At
 * run time one issue: none given names the first key ("One of a or b is required"), two given name
 * the second ("Only one of a or b may be given"). In the types a union, so giving two does not compile.
 */
export function exactlyOne<S extends z.ZodObject, const K extends readonly (keyof S['shape'] & string)[]>(
  schema: S,
  keys: K,
  options: OneOfOptions = {},
): z.ZodType<OneOf<z.output<S>, K[number]>, OneOf<z.input<S>, K[number]>> {
  return oneOfCheck(schema, keys, true, options.label) as unknown as z.ZodType<
    OneOf<z.output<S>, K[number]>,
    OneOf<z.input<S>, K[number]>
  >;
}

/** Like {@link exactlyOne}, but none of `keys` may be given too ("not together"). */
export function atMostOne<S extends z.ZodObject, const K extends readonly (keyof S['shape'] & string)[]>(
  schema: S,
  keys: K,
  options: OneOfOptions = {},
): z.ZodType<AtMostOne<z.output<S>, K[number]>, AtMostOne<z.input<S>, K[number]>> {
  return oneOfCheck(schema, keys, false, options.label) as unknown as z.ZodType<
    AtMostOne<z.output<S>, K[number]>,
    AtMostOne<z.input<S>, K[number]>
  >;
}

/**
 * `schema` with at least one of `keys` given (an update that changes nothing is refused): one issue,
 * naming the first key, "One of a, b or c is required".
 */
export function atLeastOne<S extends z.ZodObject>(schema: S, keys: readonly (keyof S['shape'] & string)[]): S {
  const names = listOf(keys);
  const checked = schema.check((ctx) => {
    const value = ctx.value as Record<string, unknown>;
    if (!keys.some((k) => value[k] !== undefined))
      ctx.issues.push({ code: 'custom', input: value, path: [keys[0]!], message: `One of ${names} is required` });
  });
  return withRule(checked, { description: `At least one of ${names}`, anyOf: requiredEach(keys) });
}

/**
 * The refusal message of unknown keys: `Unknown parameter: a, b`; a key without a name (a query's
 * `?=x`, a JSON body's `""`) in quotes, `Unknown parameter: ""`, rather than as nothing.
 */
export function unknownParameterMessage(keys: readonly string[]): string {
  return `Unknown parameter: ${keys.map((key) => (key.trim() ? key : `"${key}"`)).join(', ')}`;
}

/**
 * Turns a zod issue path into the spec's `field` text: `price_periods[0].payment_option`.
 * A path-less issue has no field, and the caller names one.
 */
export function fieldOf(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/**
 * The one issue both halves report for a failed check: an unknown key first (`unknown_parameter`),
 * else the first issue. A failed union reports from the branch that fits best: the one without an
 * unknown key and with the fewest issues (so `{ accountId: 'x', clientId }` against endpoint 22's two
 * forms names `accountId`, not the whole body).
 */
export function primaryIssue(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue | undefined {
  const unknown = issues.find((i) => i.code === 'unrecognized_keys');
  if (unknown) return unknown;
  const first = issues[0];
  if (first?.code !== 'invalid_union' || first.errors.length === 0) return first;
  let best: readonly z.core.$ZodIssue[] | undefined;
  const score = (branch: readonly z.core.$ZodIssue[]) =>
    branch.length + (branch.some((i) => i.code === 'unrecognized_keys') ? 1000 : 0);
  for (const branch of first.errors) if (!best || score(branch) < score(best)) best = branch;
  const inner = best && primaryIssue(best);
  return inner ? { ...inner, path: [...first.path, ...inner.path] } : first;
}

/** Discriminators whose unknown value has a code of its own: RFC 6749 section 5.2's `unsupported_grant_type`. */
const UNSUPPORTED_VALUE: Readonly<Record<string, KnownErrorCode>> = { grant_type: 'unsupported_grant_type' };

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * The error `code` of a refused input, from its {@link primaryIssue}: `unknown_parameter` for an
 * unknown key, `unsupported_grant_type` for a `grant_type` given but not served, `invalid_parameter`
 * for every other broken rule.
 */
export function refusalCodeOf(issue: z.core.$ZodIssue, input: unknown): KnownErrorCode {
  if (issue.code === 'unrecognized_keys') return 'unknown_parameter';
  if (issue.code === 'invalid_union' && issue.errors.length === 0) {
    const key = issue.path[issue.path.length - 1];
    const code = typeof key === 'string' ? UNSUPPORTED_VALUE[key] : undefined;
    if (code && typeof valueAt(input, issue.path) === 'string') return code;
  }
  return 'invalid_parameter';
}

/**
 * Whether a size issue is a number's: a bound of the schema (`number`), or the safe integers' that
 * `int()` holds every integer to (`int`, ±9007199254740991), or a bigint's. A text's or a list's is
 * a size.
 */
function isNumberOrigin(origin: string): boolean {
  return origin === 'number' || origin === 'int' || origin === 'bigint';
}

/**
 * One error map shared by the SDK and the platform, so that a rule broken on either side reads the
 * same: "Parameter must match format (/^[a-f\d]{24}$/i)".
 */
export const platformErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'Parameter is required' : `Parameter must be of type ${issue.expected}`;
    case 'invalid_format':
      if (issue.format === 'regex' && 'pattern' in issue)
        return issue.pattern === String(ID_PATTERN)
          ? ID_RULE
          : `Parameter must match format (${String(issue.pattern)})`;
      if (issue.format === 'email') return 'Parameter must be a valid e-mail address';
      return `Parameter must be a valid ${issue.format === 'datetime' ? 'ISO 8601 date-time with offset' : issue.format}`;
    case 'too_big':
      return issue.origin === 'array'
        ? `Parameter must have at most ${issue.maximum} items`
        : isNumberOrigin(issue.origin)
          ? issue.inclusive === false
            ? `Parameter must be less than ${issue.maximum}`
            : `Parameter must be at most ${issue.maximum}`
          : `Parameter size must be at most ${issue.maximum}`;
    case 'too_small':
      return issue.origin === 'array'
        ? `Parameter must have at least ${issue.minimum} items`
        : isNumberOrigin(issue.origin)
          ? issue.inclusive === false
            ? `Parameter must be greater than ${issue.minimum}`
            : `Parameter must be at least ${issue.minimum}`
          : `Parameter size must be at least ${issue.minimum}`;
    case 'invalid_value':
      // A missing member of a list of values (a `z.enum`) is reported by zod as a wrong value.
      return issue.input === undefined
        ? 'Parameter is required'
        : `Parameter must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_union':
      // A discriminated union without a matching branch (endpoint 23's `grant_type`).
      // Its `input` is the whole object; the discriminator is the issue's path.
      if (issue.errors.length === 0 && 'options' in issue && Array.isArray(issue.options))
        return valueAt(issue.input, issue.path ?? []) === undefined
          ? 'Parameter is required'
          : `Parameter must be one of: ${issue.options.join(', ')}`;
      return 'Parameter has an invalid value';
    case 'unrecognized_keys':
      return unknownParameterMessage(issue.keys);
    default:
      return undefined;
  }
};
