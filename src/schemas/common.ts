import * as z from 'zod';

/** Record identifiers: 24 hexadecimal characters (spec: "Resources and their fields"). */
export const ID_PATTERN = /^[a-f\d]{24}$/i;
/** Product, package, campaign and title codes (endpoints 2, 13, 18, 20). */
export const CODE_PATTERN = /^[a-zA-Z-_0-9]+$/;

/** A record id as the spec writes it: up to 24 characters, `/^[a-f\d]{24}$/i`. */
export const id = z.string().max(24).regex(ID_PATTERN);

/** An ISO 8601 date-time with offset. */
export const dateTime = z.iso.datetime({ offset: true });

/**
 * A boolean query parameter. Typed callers pass a boolean; on the wire it is the text
 * `true` or `false`, which the platform parses with the same schema.
 */
export const queryBoolean = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** The common error body of the API (spec: "Errors"). */
export const ErrorBody = z.looseObject({
  code: z.string(),
  field: z.string().optional(),
  message: z.string(),
  api_correlation_id: z.string().optional(),
});
/** The common error body of the API. */
export type ErrorBody = z.infer<typeof ErrorBody>;

/** `{ id }`: the answer of most writes. */
export const IdResponse = z.looseObject({ id: z.string() });
/** `{ id }`: the answer of most writes. */
export type IdResponse = z.infer<typeof IdResponse>;

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
 * One error map shared by the SDK and the platform, so that a rule broken on either side reads the
 * same: "Parameter must match format (/^[a-f\d]{24}$/i)".
 */
export const platformErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'Parameter is required' : `Parameter must be of type ${issue.expected}`;
    case 'invalid_format':
      if (issue.format === 'regex' && 'pattern' in issue)
        return `Parameter must match format (${String(issue.pattern)})`;
      return `Parameter must be a valid ${issue.format === 'datetime' ? 'ISO 8601 date-time with offset' : issue.format}`;
    case 'too_big':
      return issue.origin === 'array'
        ? `Parameter must have at most ${issue.maximum} items`
        : `Parameter size must be at most ${issue.maximum}`;
    case 'too_small':
      return issue.origin === 'array'
        ? `Parameter must have at least ${issue.minimum} items`
        : `Parameter size must be at least ${issue.minimum}`;
    case 'invalid_value':
      return `Parameter must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_union':
      return 'Parameter has an invalid value';
    case 'unrecognized_keys':
      return `Unknown parameter: ${issue.keys.join(', ')}`;
    default:
      return undefined;
  }
};
