/** Reading a request's input the spec's way: content type, JSON, then the endpoint's zod schema. */
import * as z from 'zod';
import {
  fieldOf,
  platformErrorMap,
  primaryIssue,
  refusalCodeOf,
  unknownParameterMessage,
} from '../../src/schemas/common.js';
import { HttpError } from './errors.js';
import { setOwn } from './messages.js';

/** `application/json`, from a Content-Type such as `application/json; charset=utf-8`. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  return contentType.split(';', 1)[0]!.trim().toLowerCase();
}

/** Whether a media type is JSON: `application/json`, or a structured `application/...+json` type. */
export function isJsonMediaType(media: string | undefined): boolean {
  if (media === undefined) return false;
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}

/** 400 `invalid_content_type_error`. */
export function invalidContentType(expected: string): HttpError {
  return new HttpError(400, 'invalid_content_type_error', `Content-Type must be ${expected}`, 'content-type');
}

/**
 * Parses a JSON body; refuses broken JSON (400 `json_parser_error`). The core has already refused
 * a JSON body that nests too deep (`jsonDepthExceeds`, before the journal), so nothing here walks
 * one. A `__proto__` member stays an own key, which validation then refuses as unknown like any other.
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'json_parser_error', 'Body is not valid JSON', 'body');
  }
}

/** A body must be a JSON object. */
export function requireObject(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, 'invalid_parameter', 'Body must be a JSON object', 'body');
  return value as Record<string, unknown>;
}

/**
 * Name/value pairs (a query string without its `?`, a form body) as a record, read as
 * `URLSearchParams` reads them; a repeated name is refused. Every name is an own key, `__proto__`,
 * `constructor` or `prototype` like any other (and an unknown one to validation).
 */
export function pairsToRecord(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  // A percent escape or a surrogate (a lone one becomes U+FFFD) is for the parser to read.
  if (/[%\uD800-\uDFFF]/.test(text)) {
    for (const [k, v] of new URLSearchParams(text)) addPair(out, k, v);
    return out;
  }
  // Nothing to decode but `+`: split as the URL standard's form parser does.
  for (const pair of (text.includes('+') ? text.replaceAll('+', ' ') : text).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    if (eq < 0) addPair(out, pair, '');
    else addPair(out, pair.slice(0, eq), pair.slice(eq + 1));
  }
  return out;
}

/** A pair into `out`: a name given twice is refused. */
function addPair(out: Record<string, string>, name: string, value: string): void {
  if (Object.hasOwn(out, name)) throw new HttpError(400, 'invalid_parameter', 'Parameter must not be repeated', name);
  setOwn(out, name, value);
}

/**
 * An integer from `min` to `max`, refused in one sentence whatever is wrong with it: `Parameter must
 * be an integer from 1 to 1000` (or `words` instead of "an integer from 1 to 1000").
 */
export function integerIn(min: number, max: number, words = `an integer from ${min} to ${max}`): z.ZodNumber {
  // A schema's error words the issues of its checks too.
  const error = `Parameter must be ${words}`;
  return z.number({ error }).int().min(min).max(max);
}

/**
 * Validates `input` with `schema` and answers its output, or throws ONE error, for the issue both
 * halves report (`primaryIssue`): an unknown key first (400 `unknown_parameter` naming it), else the
 * first broken rule (400 `invalid_parameter`, or `unsupported_grant_type` for an unknown grant).
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown, fallbackField?: string): z.output<S> {
  // The error map costs even when nothing is wrong: it words the issues of a failed parse only.
  const plain = schema.safeParse(input);
  if (plain.success) return plain.data;
  // The same parse fails again, its issues worded; a failed parse has an issue, and unknown keys name one.
  const issue = primaryIssue(schema.safeParse(input, { error: platformErrorMap }).error!.issues)!;
  const code = refusalCodeOf(issue, input);
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    throw new HttpError(400, code, unknownParameterMessage([key]), fieldOf([...issue.path, key]));
  }
  const hint = code === 'unsupported_grant_type' ? GRANT_HINTS[String(grantTypeOf(input))] : undefined;
  throw new HttpError(
    400,
    code,
    hint ? `${issue.message} ${hint}` : issue.message,
    fieldOf(issue.path) || fallbackField,
  );
}

/**
 * What a `grant_type` that OAuth libraries send means on this platform: the fix, after the list of
 * the grants served (the platform's words only: the SDK sends the grants itself).
 */
const GRANT_HINTS: Readonly<Record<string, string>> = {
  client_credentials: "(this platform's client-credentials grant is grant_type=none)",
  authorization_code: '(a ticket is exchanged with grant_type=ticket)',
};

/** The `grant_type` of a token request's body, if it has one. */
function grantTypeOf(input: unknown): unknown {
  return input !== null && typeof input === 'object' ? Reflect.get(input, 'grant_type') : undefined;
}
