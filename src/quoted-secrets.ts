/**
 * The secrets a request sent, taken out of what comes back quoting them: an answer's body and
 * headers, a redirect's location, a failure's message and causes. A host may echo what it was sent
 * (an auth host the grant, `client_secret` and all; a proxy the URL), in any escape: each secret is
 * looked for in every spelling a text may quote it in. The names and shapes of secrets are
 * `src/secrets.ts`'s. Used on the error path only: a call answered 2xx never comes here.
 */
import { REDACTED } from './logger.js';
import { isAsciiLetterOrDigit, isSecretName } from './secrets.js';

/** What a request sent that may carry a secret, as a call holds it once built. */
export interface SentRequest {
  /** The bearer token sent (the client's on the latest attempt, or the call's own). */
  readonly token: string | undefined;
  /** The headers sent, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The URL, with the query. */
  readonly url: string;
  /** The JSON body, if any. */
  readonly json: unknown;
}

/**
 * The secret values a request sent: its bearer token, its headers and query parameters under
 * secret names, and its body's members under secret names (`client_secret`, `ticket`,
 * `refresh_token`...) at any depth, with the secret claims of a JWT among them (`t`'s `pwd`).
 */
export function secretsSent(request: SentRequest): string[] {
  const found: string[] = [];
  if (request.token !== undefined) found.push(request.token);
  for (const [name, value] of Object.entries(request.headers)) if (isSecretName(name)) found.push(value);
  for (const [name, value] of new URL(request.url).searchParams) if (isSecretName(name)) found.push(value);
  secretsIn(request.json, false, found);
  return found;
}

/**
 * Adds to `into` the texts of `value` that are secret: under a secret name, or inside a value that
 * is; and, of a secret that is a JWT (an SSO request token `t`), the claims it signs under secret
 * names (`pwd`, the ticket `at`, the session `sid`), which a host may quote back as they are.
 */
function secretsIn(value: unknown, secret: boolean, into: string[]): void {
  if (typeof value === 'string' || typeof value === 'number') {
    if (!secret) return;
    into.push(String(value));
    if (typeof value === 'string') secretsIn(claimsOf(value), false, into);
  } else if (Array.isArray(value)) {
    for (const item of value) secretsIn(item, secret, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) secretsIn(item, secret || isSecretName(name), into);
  }
}

/** The claims of a JWT (`header.claims.signature`, each part base64url), or undefined when `text` is none. */
function claimsOf(text: string): unknown {
  const parts = text.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const binary = atob((parts[1] ?? '').replaceAll('-', '+').replaceAll('_', '/'));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))) as unknown;
  } catch {
    return undefined;
  }
}

/** The members of the common error body: `code`, `field`, `message`, `api_correlation_id`. */
const ERROR_MEMBERS: ReadonlySet<string> = new Set(['code', 'field', 'message', 'api_correlation_id']);

/** Secrets shorter than this are not looked for in quoted text: a message would lose its words to them. */
const SHORTEST_QUOTED_SECRET = 4;

/**
 * A text as a URL's path writes it: what its percent-encode set holds (controls, space, `"`, `#`,
 * `<`, `>`, `?`, `` ` ``, `{`, `}`, all beyond ASCII) percent-encoded, the rest as it is.
 */
function asInPath(text: string): string {
  let out = '';
  for (const char of text) {
    const c = char.codePointAt(0) ?? 0;
    out += c <= 32 || c >= 127 || '"#<>?`{}'.includes(char) ? encodeURIComponent(char) : char;
  }
  return out;
}

/** The characters an HTML page escapes, in the order of each spelling of {@link HTML_ESCAPES}. */
const HTML_SPECIALS = `&<>"'`;

/**
 * How HTML writers spell `&`, `<`, `>`, `"` and `'`: by name, `'` as each writes it (`&#39;`;
 * Python's `html.escape`, `&#x27;`; PHP's `htmlspecialchars`, `&#039;`; HTML5 and XML, `&apos;`;
 * Go, `&#34;` and `&#39;`); in text outside an attribute, the quotes as they are; or by number, in
 * decimal or in hexadecimal with the digits in lower case or in upper.
 */
const HTML_ESCAPES: readonly (readonly string[])[] = [
  ...['&#39;', '&#x27;', '&#039;', '&apos;'].map((apostrophe) => ['&amp;', '&lt;', '&gt;', '&quot;', apostrophe]),
  ['&amp;', '&lt;', '&gt;', '&#34;', '&#39;'],
  ['&amp;', '&lt;', '&gt;', '"', "'"],
  ...[
    (c: number) => `${c}`,
    (c: number) => `x${c.toString(16)}`,
    (c: number) => `x${c.toString(16).toUpperCase()}`,
  ].map((digits) => [...HTML_SPECIALS].map((c) => `&#${digits(c.charCodeAt(0))};`)),
];

/** A text as an HTML page writes it, `&`, `<`, `>`, `"` and `'` spelled as `escapes` says. */
function asInHtml(text: string, escapes: readonly string[]): string {
  return text.replace(/[&<>"']/g, (c) => escapes[HTML_SPECIALS.indexOf(c)] ?? c);
}

/** A percent-encoded text with its escapes' hexadecimal digits in lower case (`%2f`), as some encoders write them. */
function lowerHex(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
}

/**
 * The spellings a text may quote a secret in: as it is; escaped in a JSON string, also with `/` as
 * `\/` (as PHP writes it) or `&`, `<` and `>` as `\u0026`, `\u003c` and `\u003e` (as Go writes
 * them); as an HTML page writes it (each way of {@link HTML_ESCAPES}); encoded in a URL's query or a
 * form, and as a URL's path writes it, the escapes' digits in upper case or in lower.
 */
function spellingsOf(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const spellings = [secret, json, json.split('/').join('\\/')];
  spellings.push(json.replaceAll('&', '\\u0026').replaceAll('<', '\\u003c').replaceAll('>', '\\u003e'));
  for (const escapes of HTML_ESCAPES) spellings.push(asInHtml(secret, escapes));
  try {
    const encoded = [encodeURIComponent(secret), new URLSearchParams([['', secret]]).toString().slice(1)];
    encoded.push(asInPath(secret));
    spellings.push(...encoded, ...encoded.map(lowerHex));
  } catch {
    // A lone surrogate has no percent-encoding (URIError): no encoded text can quote it.
  }
  return spellings;
}

/**
 * What takes `secrets` out of a text, each in every spelling of {@link spellingsOf}, the longest
 * first (so a secret is taken out whole before a shorter one it holds).
 */
export function unquoting(secrets: readonly string[]): (text: string) => string {
  const quotable = secrets.filter((secret) => secret.length >= SHORTEST_QUOTED_SECRET);
  const spellings = [
    ...new Map(
      quotable.flatMap((secret) =>
        spellingsOf(secret).map((spelling) => [spelling, secret.length < ANYWHERE_FROM] as const),
      ),
    ),
  ].sort(([a], [b]) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const [spelling, alone] of spellings)
      if (out.includes(spelling)) out = alone ? withoutAlone(out, spelling) : out.split(spelling).join(REDACTED);
    return out;
  };
}

/**
 * From this length on, a secret is taken out wherever it is quoted, inside a word too (`%3D` before
 * it, a token run into other text). A shorter one (a word a developer tries as a token: `invalid`,
 * `token`) only where it stands alone, or a code such as `invalid_token` would lose a part of it.
 */
const ANYWHERE_FROM = 16;

/** Whether a character is one of a word's, as a credential or a code writes it: a letter, a digit, `_` or `-`. */
function isWordChar(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return isAsciiLetterOrDigit(c) || c === 95 || c === 45;
}

/** Whether `text` has a percent escape (`%3D`) just before `at`: what follows it starts a value. */
function escapeBefore(text: string, at: number): boolean {
  return at >= 3 && text.charAt(at - 3) === '%' && /^[0-9a-f]{2}$/i.test(text.slice(at - 2, at));
}

/** `text` with `spelling` taken out where it stands alone: no letter, digit, `_` or `-` right before or after it. */
function withoutAlone(text: string, spelling: string): string {
  let out = '';
  let last = 0;
  let at = text.indexOf(spelling);
  while (at >= 0) {
    const end = at + spelling.length;
    const before = !isWordChar(spelling, 0) || at === 0 || !isWordChar(text, at - 1) || escapeBefore(text, at);
    const after = !isWordChar(spelling, spelling.length - 1) || end === text.length || !isWordChar(text, end);
    if (before && after) {
      out += `${text.slice(last, at)}${REDACTED}`;
      last = end;
      at = text.indexOf(spelling, end);
    } else at = text.indexOf(spelling, at + 1);
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * The body of an answer outside 2xx (JSON, else its text, else nothing) without the secrets the
 * request carried, should it quote them (an auth host echoing the grant, `client_secret` and all).
 * JSON is parsed first and `unquote` applied to each of its strings and keys: however the host
 * escaped a secret (`\/`, `\u0026`), it reads there as sent. Other text has each secret taken out
 * in every spelling `unquote` knows (as it is, JSON-escaped, URL-encoded).
 */
export function withoutSecrets(text: string, unquote: (text: string) => string): unknown {
  if (text === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    return unquote(text);
  }
  return unquoted(body, unquote);
}

/** A parsed JSON value with `unquote` applied to each of its strings, keys and numbers, at any depth. */
function unquoted(value: unknown, unquote: (text: string) => string): unknown {
  if (typeof value === 'string') return unquote(value);
  if (typeof value === 'number') {
    const text = String(value);
    const out = unquote(text);
    return out === text ? value : out;
  }
  if (Array.isArray(value)) return value.map((item) => unquoted(item, unquote));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  // `__proto__` as an own key stays a key (an assignment would set the prototype instead).
  // The common error body's own names are not quotes of a secret, whatever a secret spells.
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(out, ERROR_MEMBERS.has(key) ? key : unquote(key), {
      value: unquoted(item, unquote),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/**
 * The headers of an answer outside 2xx without the secrets the request carried, should a value
 * quote them (`WWW-Authenticate: Bearer error_description="token <token> expired"`), and with the
 * value of a header of a secret name (`set-cookie`) redacted whole.
 */
export function headersWithoutSecrets(headers: Headers, unquote: (text: string) => string): Headers {
  const out = new Headers();
  for (const [name, value] of headers) out.append(name, isSecretName(name) ? REDACTED : unquote(value));
  return out;
}

/** How deep the causes of a failure are followed when their words are cleaned ({@link cleanCause}). */
const MAX_CAUSES = 8;

function defineHidden(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: false, configurable: true });
}

/** A field of a failure that its stand-in leaves out: an object the SDK cannot see into, or data that quotes a secret. */
const LEFT_OUT: unique symbol = Symbol('left out');

/** The most values of a failure's plain data that are looked into before it is left out unseen. */
const MAX_SEEN = 1000;

/**
 * A failure as an error's `cause` may show it: itself when nothing it holds quotes a secret; else a
 * stand-in of its class. What is looked at: its message and stack, its causes ({@link MAX_CAUSES}
 * deep), and its own fields, where a `fetch` of the caller's may keep the request (an error that
 * carries `config.headers` or the body sent). In a stand-in, a text is cleaned, a number or boolean
 * kept (`errno`), a failure replaced by its own stand-in (an `AggregateError`'s `errors`), an array
 * of them cleaned alike, and plain data (objects and arrays of texts and numbers) kept when no text
 * in it quotes a secret; anything else is left out: plain data that quotes one, and an object whose
 * contents the SDK cannot see (a `Request`, a `Headers`, a function). A thrown text is cleaned; a
 * thrown value that is not a failure is kept when it is plain data quoting nothing, and is
 * `undefined` (no cause) otherwise.
 */
export function cleanCause(error: unknown, clean: (text: string) => string, depth = 0): unknown {
  const cleaned = cleanField(error, clean, depth);
  return cleaned === LEFT_OUT ? undefined : cleaned;
}

/** A value a failure holds, as its stand-in holds it: the value itself when nothing in it changes. */
function cleanField(value: unknown, clean: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return clean(value);
  if (typeof value === 'function') return LEFT_OUT;
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_CAUSES) return LEFT_OUT;
  if (value instanceof Error) return cleanFailure(value, clean, depth);
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => cleanField(item, clean, depth + 1));
    return items.every((item, i) => item === value[i]) ? value : items.filter((item) => item !== LEFT_OUT);
  }
  return isPlainData(value) && quotesNothing(value, clean) ? value : LEFT_OUT;
}

/** `error` itself when nothing it holds quotes a secret; else its stand-in ({@link cleanCause}). */
function cleanFailure(error: Error, clean: (text: string) => string, depth: number): Error {
  const fields = Object.getOwnPropertyDescriptors(error);
  const kept = new Map<string, unknown>();
  let changed = false;
  for (const [key, field] of Object.entries(fields)) {
    if (!('value' in field) || ['name', 'message', 'stack', 'cause'].includes(key)) continue;
    const value = cleanField(field.value, clean, depth + 1);
    if (value !== field.value) changed = true;
    if (value !== LEFT_OUT) kept.set(key, value);
  }
  const cause = cleanCause(error.cause, clean, depth + 1);
  // A name is a class's word, but any text can be given one: `String(cause)` shows it.
  const name = typeof error.name === 'string' ? clean(error.name) : error.name;
  const message = clean(error.message);
  const stack = typeof error.stack === 'string' ? clean(error.stack) : undefined;
  const same = name === error.name && message === error.message && stack === error.stack && cause === error.cause;
  if (!changed && same) return error;
  // A DOMException's fields are read through its own slots, which a stand-in lacks: it stands in as an Error.
  const domException = typeof DOMException !== 'undefined' && error instanceof DOMException;
  const copy = Object.create(domException ? Error.prototype : (Object.getPrototypeOf(error) as object | null)) as Error;
  for (const [key, value] of kept) Object.defineProperty(copy, key, { ...fields[key], value });
  // Set on the stand-in itself, whether the failure's are its own or its class's (a DOMException's).
  defineHidden(copy, 'name', name);
  defineHidden(copy, 'message', message);
  if (stack !== undefined) defineHidden(copy, 'stack', stack);
  if (cause !== undefined) defineHidden(copy, 'cause', cause);
  return copy;
}

/**
 * Whether `value` is plain data all through: objects of no class but `Object` (or none), arrays,
 * texts, numbers, booleans and `null`, at most {@link MAX_SEEN} values and {@link MAX_CAUSES} deep.
 * Only such data can be looked into whole; an object of another class may hold what it sent where
 * no field shows it.
 */
function isPlainData(value: unknown): boolean {
  let seen = 0;
  const plain = (v: unknown, depth: number): boolean => {
    if (++seen > MAX_SEEN) return false;
    if (v === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof v)) return true;
    if (typeof v !== 'object' || depth > MAX_CAUSES) return false;
    if (Array.isArray(v)) return v.every((item: unknown) => plain(item, depth + 1));
    const prototype = Object.getPrototypeOf(v) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return false;
    return Object.values(Object.getOwnPropertyDescriptors(v)).every(
      (field) => 'value' in field && plain(field.value, depth + 1),
    );
  };
  return plain(value, 0);
}

/** Whether no text of plain data `value` (its keys among them) quotes a secret `clean` takes out. */
function quotesNothing(value: object, clean: (text: string) => string): boolean {
  const text = JSON.stringify(value);
  return clean(text) === text;
}
