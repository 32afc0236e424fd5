/**
 * The secrets a request sent, taken out of what comes back quoting them: an answer's body and
 * headers, a redirect's location, a failure's message and causes. A host may echo what it was sent
 * (an auth host the grant, `client_secret` and all; a proxy the URL), in any escape: each secret is
 * looked for in every spelling a text may quote it in. The names and shapes of secrets are
 * `src/secrets.ts`'s. Used on the error path only: a call answered 2xx never comes here.
 */
import { REDACTED } from './logger.js';
import { isSecretName } from './secrets.js';

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
  const spellings = [...new Set(quotable.flatMap(spellingsOf))].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const spelling of spellings) if (out.includes(spelling)) out = out.split(spelling).join(REDACTED);
    return out;
  };
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
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(out, unquote(key), {
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

/**
 * A failure as an error's `cause` may show it: itself when `clean` changes nothing in its message
 * nor in its causes' ({@link MAX_CAUSES} deep); else a stand-in of its class whose message, stack
 * and own text fields are cleaned (its own numbers and booleans kept: `errno`), its cause the
 * cause's stand-in, its own fields holding objects left out. A thrown text is cleaned.
 */
export function cleanCause(error: unknown, clean: (text: string) => string, depth = 0): unknown {
  if (typeof error === 'string') return clean(error);
  if (!(error instanceof Error)) return error;
  const cause = depth < MAX_CAUSES ? cleanCause(error.cause, clean, depth + 1) : undefined;
  const message = clean(error.message);
  if (message === error.message && cause === error.cause) return error;
  // A DOMException's fields are read through its own slots, which a stand-in lacks: it stands in as an Error.
  const domException = typeof DOMException !== 'undefined' && error instanceof DOMException;
  const copy = Object.create(domException ? Error.prototype : (Object.getPrototypeOf(error) as object | null)) as Error;
  for (const [key, field] of Object.entries(Object.getOwnPropertyDescriptors(error))) {
    const value: unknown = field.value;
    if (!('value' in field) || ['name', 'message', 'stack', 'cause'].includes(key)) continue;
    if (typeof value === 'object' ? value !== null : typeof value === 'function') continue;
    Object.defineProperty(copy, key, { ...field, value: typeof value === 'string' ? clean(value) : value });
  }
  // Set on the stand-in itself, whether the failure's are its own or its class's (a DOMException's).
  defineHidden(copy, 'name', error.name);
  defineHidden(copy, 'message', message);
  if (typeof error.stack === 'string') defineHidden(copy, 'stack', clean(error.stack));
  if (cause !== undefined) defineHidden(copy, 'cause', cause);
  return copy;
}
