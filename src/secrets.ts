/**
 * The one rule of what is secret, and the redaction of text that may carry secrets. The SDK's
 * logger (`src/logger.ts`), the reference platform's request journal (`mock/core/journal.ts`) and
 * its request log line all redact from here, so a name added once is redacted everywhere.
 *
 * A value is secret by what its name means or by what it looks like:
 *
 * - its name, compared after decoding (`client\u005fsecret` in JSON, `client%5Fsecret` in a form
 *   or query) and normalising ({@link normaliseName}: Unicode compatibility forms folded, lower
 *   case, everything but letters and digits dropped), so `clientSecret`, `Client-Secret`,
 *   `client_secret[]`, `ｃlient_secret` and `client_ſecret` are one name, is one of
 *   {@link SECRET_NAMES}, holds one of {@link SECRET_WORDS} (`x-client-secret`, `x-api-key`) or
 *   ends in one of {@link SECRET_ENDINGS} (`x-auth-token`);
 * - it is shaped like a credential, under any name ({@link redactShapes}): a JWT, or a long random
 *   base64url text such as this platform's tickets, tokens and session ids;
 * - in free text, it follows `Bearer` ({@link redactBearer}) and is not prose: a placeholder
 *   (`<token>`) or one of {@link BEARER_PROSE_WORDS} (`token:`, `realm`) is kept, so a sentence
 *   about bearer tokens stays readable.
 *
 * URLs inside URL-valued parameters (a ticket in a `returnUrl` in a `returnUrl`) are followed
 * {@link MAX_NESTING} levels deep, and a value still nested deeper is redacted whole. Every
 * function here is a forward scan, linear in the text at each level; no regular expression
 * matches more than one character.
 */

/**
 * Names whose values are credentials or personal data, as the spec and the platform's public
 * documentation spell them: tokens, tickets (`at` in the marketplace URL and in SSO claims), the
 * SSO's signed request and session tokens (`t`), client secrets, passwords (`pwd` is the SSO's
 * password claim), the SSO session id (`sid`, which with a ticket logs a session in), a national
 * identity number (`ssn`, endpoint 9), the shop's anti-forgery token, and the credential headers.
 * Not secret: user names and e-mail addresses (`usr`, `email`).
 */
export const SECRET_NAMES: readonly string[] = [
  'access_token',
  'refresh_token',
  'client_secret',
  'ticket',
  'at',
  't',
  'password',
  'pwd',
  'ssn',
  'sid',
  'csrf_token',
  'authorization',
  'proxy_authorization',
  'cookie',
  'set_cookie',
  'token',
  'id_token',
  'api_key',
];

/**
 * Words that make any name holding them secret, wherever they stand in it: `x-client-secret`,
 * `new_password`, `x-api-key`, `private_key_pem`, `credentials`.
 */
const SECRET_WORDS: readonly string[] = [
  'secret',
  'password',
  'passwd',
  'passphrase',
  'apikey',
  'privatekey',
  'credential',
];

/**
 * Endings that make a name secret, each with its plural: `x-auth-token`, `session_tokens`,
 * `x-authorization`, `x-cookies`, `sso_ticket`. Only at the end: `token_type` and
 * `ticket_configuration` are not secrets.
 */
const SECRET_ENDINGS: readonly string[] = ['token', 'authorization', 'cookie', 'ticket'].flatMap((e) => [e, `${e}s`]);

/** One character beyond ASCII that a name keeps: a letter or a digit of any script. */
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/**
 * {@link normaliseName} of a name in ASCII, which NFKC leaves as it is, in one pass: its letters in
 * lower case and its digits. Undefined when a character is beyond ASCII. A body of a million short
 * names is judged a name at a time, so this is what it costs.
 */
function asciiName(name: string): string | undefined {
  let kept = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 128) return undefined;
    if (c >= 65 && c <= 90) kept += String.fromCharCode(c + 32);
    else if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) kept += name.charAt(i);
  }
  return kept;
}

/**
 * A name as names are compared: Unicode compatibility forms folded to their letters (NFKC, so the
 * full-width `ｃ` and the long `ſ` are `c` and `s`), lower case, and every character that is not
 * a letter or a digit dropped (`_`, `-`, spaces, brackets, `+`, NUL, combining marks...).
 */
export function normaliseName(name: string): string {
  const ascii = asciiName(name);
  if (ascii !== undefined) return ascii;
  const folded = name.normalize('NFKC').toLowerCase();
  const kept: string[] = [];
  let from = 0;
  for (let i = 0; i < folded.length; i++) {
    const c = folded.charCodeAt(i);
    let width = 1;
    let keep: boolean;
    if (c < 128) keep = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    else {
      const point = folded.codePointAt(i) ?? c;
      width = point > 0xffff ? 2 : 1;
      keep = LETTER_OR_DIGIT.test(String.fromCodePoint(point));
    }
    if (keep) {
      i += width - 1;
      continue;
    }
    // Kept runs are copied whole: one slice per dropped character, not one per kept one.
    if (i > from) kept.push(folded.slice(from, i));
    from = i + width;
    i += width - 1;
  }
  if (from === 0) return folded;
  kept.push(folded.slice(from));
  return kept.join('');
}

const NORMALISED = new Set(SECRET_NAMES.map(normaliseName));
const WORDS = SECRET_WORDS.map(normaliseName);
const ENDINGS = SECRET_ENDINGS.map(normaliseName);

/**
 * The most characters of a name that {@link isSecretName} reads: 256. No name of the spec, of the
 * platform or of a header in use comes near (the longest are about 30), and a name cannot be
 * meant as a parameter's beyond that; yet in free text and in a request target a "name" is
 * whatever runs up to the `=` (`/a/long/path/client_secret=...`, a body with no `&`, megabytes
 * of it), and normalising all of it, for every scan that meets it, held the event loop for
 * seconds. A longer name is judged by its last 256 characters ({@link nameTail}), where a secret
 * name meant as one stands: the end of a path before `=`, the ending (`_token`) that makes it
 * secret.
 */
export const LONGEST_NAME = 256;

/** The part of a name (or of a name as written, before its escapes are decoded) that is judged: its last {@link LONGEST_NAME} characters. */
export function nameTail(name: string): string {
  return name.length > LONGEST_NAME ? name.slice(-LONGEST_NAME) : name;
}

/**
 * Whether the value of a field, parameter, header or object key of this name is a secret. A name
 * longer than {@link LONGEST_NAME} characters is judged by its last ones, so that the work is
 * bounded whatever the name.
 */
export function isSecretName(name: string): boolean {
  const normalised = normaliseName(nameTail(name));
  if (NORMALISED.has(normalised)) return true;
  for (const word of WORDS) if (normalised.includes(word)) return true;
  for (const ending of ENDINGS) if (normalised.endsWith(ending)) return true;
  return false;
}

/** The fewest characters of a random base64url credential that {@link redactShapes} redacts under any name. */
const SHORTEST_CREDENTIAL = 32;

/** A character of base64url text, or the `.` between a JWT's parts. */
function isTokenChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95 || c === 46 /* . */
  );
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** Whether `text[start, end)` mixes upper case, lower case, and a digit, `-` or `_`: random text, not a word or a code. */
function looksRandom(text: string, start: number, end: number): boolean {
  let upper = false;
  let lower = false;
  let other = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) upper = true;
    else if (c >= 97 && c <= 122) lower = true;
    else other = true;
  }
  return upper && lower && other;
}

/**
 * Redacts, in any text, what is shaped like a credential whatever it is called: a JWT (a run
 * that starts `eyJ`, a JSON header in base64url, with at least two `.`), and a run of
 * {@link SHORTEST_CREDENTIAL} or more base64url characters that mixes upper case, lower case and
 * a digit, `-` or `_` (this platform's tickets, access tokens and SSO session ids are 32 or 43).
 * Ids (24 hexadecimal digits), UUIDs, codes and words are not. Answers the text unchanged when
 * nothing is.
 */
export function redactShapes(text: string, marker: string): string {
  let out = '';
  let last = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isTokenChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let start = i;
    let end = i;
    while (end < n && isTokenChar(text.charCodeAt(end))) end++;
    i = end;
    if (end - start < SHORTEST_CREDENTIAL) continue;
    // A run right after `%` starts with the two digits of its escape (`%3D` before a value).
    if (start > 0 && text.charCodeAt(start - 1) === 37 && isHexDigit(text.charCodeAt(start)))
      start += isHexDigit(text.charCodeAt(start + 1)) ? 2 : 1;
    if (text.startsWith('eyJ', start)) {
      let dots = 0;
      for (let k = start; k < end; k++) if (text.charCodeAt(k) === 46) dots++;
      if (dots >= 2) {
        out += `${text.slice(last, start)}${marker}`;
        last = end;
        continue;
      }
    }
    // Else each part between dots on its own (a host name's labels, a sentence's words).
    let from = start;
    while (from < end) {
      let to = from;
      while (to < end && text.charCodeAt(to) !== 46) to++;
      if (to - from >= SHORTEST_CREDENTIAL && looksRandom(text, from, to)) {
        out += `${text.slice(last, from)}${marker}`;
        last = to;
      }
      from = to + 1;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

/** `%XX` escapes and `+` decoded as a form or query does; a broken escape stays as it is (as URLSearchParams does). */
export function decodeParam(raw: string): string {
  const plus = raw.includes('+') ? raw.split('+').join(' ') : raw;
  if (!plus.includes('%')) return plus;
  // URLSearchParams decodes as `decodeURIComponent` does, but a broken escape without an exception:
  // thrown and caught, one cost microseconds, and a body of `&a=%` holds a million of them.
  return new URLSearchParams(`v=${plus.replaceAll('&', '%26')}`).get('v') ?? plus;
}

/**
 * A parameter's value percent-encoded, as `encodeURIComponent` writes it. A lone surrogate (a JSON
 * text's `\ud800`), which has no UTF-8 and makes `encodeURIComponent` throw, is written as U+FFFD,
 * as a URL's parser writes it: a value redacted inside one must not fail whatever shows it.
 */
function encodedParam(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(
      Array.from(value, (c) => (c.length === 1 && c >= '\uD800' && c <= '\uDFFF' ? '\uFFFD' : c)).join(''),
    );
  }
}

/** Where a parameter's value ends, by the kind of text it is in. */
export type ParamText = 'form' | 'url' | 'text';

/** Characters that end a value (and a name): per kind of text. */
function isEnd(c: number, kind: ParamText): boolean {
  if (c === 38 /* & */) return true;
  if (kind === 'form') return false;
  if (c === 35 /* # */) return true;
  if (kind === 'url') return false;
  // Free text (a log message): a value ends at white space, quotes, angle brackets, ; and ,.
  return c <= 32 || c === 34 || c === 39 || c === 60 || c === 62 || c === 59 || c === 44;
}

/** Characters after which a new parameter name may start. */
function isStart(c: number, kind: ParamText): boolean {
  return c === 38 /* & */ || c === 63 /* ? */ || c === 35 /* # */ || (kind === 'text' && (c <= 32 || c === 59));
}

/**
 * How deep values inside values are followed: a URL in a URL-valued parameter (a return URL
 * inside a return URL), JSON in a JSON string. A value still holding parameters (an `=`) or JSON
 * at this depth is redacted whole, so nothing is missed at any depth, and each level costs one
 * scan of a shorter text.
 */
const MAX_NESTING = 8;

/**
 * A decoded value that is not secret by its name, with what it carries redacted: the secret
 * parameters of a URL in it (followed {@link MAX_NESTING} levels deep, then redacted whole), and
 * what is shaped like a credential ({@link redactShapes}).
 */
export function redactValue(value: string, marker: string, depth = 0): string {
  let inner = value;
  if (value.includes('=')) inner = depth < MAX_NESTING ? redactParams(value, marker, 'url', depth + 1) : marker;
  return inner === marker ? inner : redactShapes(inner, marker);
}

/**
 * The decoded value of a parameter whose name is not secret, with what it carries redacted: what
 * {@link redactValue} redacts, and, in a parameter of the text itself (`depth` 0: a query value, a
 * form field), JSON ({@link redactJsonText}: `?filter={"password":"..."}`), followed
 * {@link MAX_NESTING} levels deep. JSON in the parameters of a URL inside a value is not looked
 * for: a value read both as JSON and as parameters at each level would cost twice the scans of the
 * level above, 2^{@link MAX_NESTING} in all.
 */
export function redactParamValue(value: string, marker: string, depth = 0): string {
  if (depth > 0 || !startsLikeJson(value)) return redactValue(value, marker, depth);
  return redactValue(redactJsonText(value, marker, 1), marker, depth);
}

/**
 * Redacts `name=value` parameters whose decoded name is a secret, in a form body (`kind` `form`),
 * a URL or query string (`url`), or free text (`text`: a log message, where a value also ends at
 * white space); and in every other value, what {@link redactParamValue} redacts (a ticket inside a
 * `returnUrl`, a JWT under any name, JSON), the value then re-encoded. Answers the text unchanged when
 * nothing is secret.
 */
export function redactParams(text: string, marker: string, kind: ParamText, depth = 0): string {
  let out = '';
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    // `i` is where a name may start; find its `=`, or where it stops being a name.
    let eq = i;
    while (eq < n) {
      const c = text.charCodeAt(eq);
      if (c === 61 /* = */ || isEnd(c, kind) || isStart(c, kind)) break;
      eq++;
    }
    if (eq >= n || text.charCodeAt(eq) !== 61) {
      i = eq + 1;
      continue;
    }
    let end = eq + 1;
    while (end < n && !isEnd(text.charCodeAt(end), kind)) end++;
    const rawValue = text.slice(eq + 1, end);
    // The name's tail is decoded, not all of it: a name of megabytes costs no more than a short one.
    if (isSecretName(decodeParam(nameTail(text.slice(i, eq))))) {
      out += `${text.slice(last, eq + 1)}${marker}`;
      last = end;
    } else if (rawValue.length > 0) {
      const value = decodeParam(rawValue);
      const inner = redactParamValue(value, marker, depth);
      if (inner !== value) {
        out += `${text.slice(last, eq + 1)}${inner === marker ? marker : encodedParam(inner)}`;
        last = end;
      }
    }
    i = end + 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** The index after the JSON string literal that starts at `start` (a `"`); `n` when it is not closed. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) i += 2;
    else if (c === 34 /* " */) return i + 1;
    else i++;
  }
  return n;
}

/** The text of a JSON string literal (`\u` escapes decoded); undefined when it does not parse. */
export function stringValue(literal: string): string | undefined {
  if (!literal.includes('\\')) return literal.slice(1, -1);
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The index after the JSON value that starts at `start`: a string, an object or array (balanced), or a scalar. */
export function valueEnd(text: string, start: number): number {
  const n = text.length;
  const first = text.charCodeAt(start);
  if (first === 34) return stringEnd(text, start);
  if (first === 123 /* { */ || first === 91 /* [ */) {
    let depth = 0;
    let i = start;
    while (i < n) {
      const char = text.charCodeAt(i);
      if (char === 34) {
        i = stringEnd(text, i);
        continue;
      }
      if (char === 123 || char === 91) depth++;
      else if (char === 125 /* } */ || char === 93 /* ] */) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return n;
  }
  let i = start;
  while (i < n) {
    const char = text.charCodeAt(i);
    if (char === 44 || char === 125 || char === 93 || char <= 32) break;
    i++;
  }
  return i;
}

/** The index of the first character at or after `start` that is not white space (or control). */
export function skipSpace(text: string, start: number): number {
  let i = start;
  while (i < text.length && text.charCodeAt(i) <= 32) i++;
  return i;
}

/** Whether a text starts, after white space, as a JSON object or array does. */
export function startsLikeJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32) return c === 123 /* { */ || c === 91 /* [ */;
  }
  return false;
}

/**
 * Redacts, in JSON text (valid or not, or JSON inside a longer text), the value of every member
 * whose decoded name is a secret (the whole value, when it is an object or an array), and in every
 * other string value what it carries: JSON (followed {@link MAX_NESTING} levels deep, then
 * redacted whole), and what {@link redactValue} redacts (secret parameters of a URL, a JWT).
 * Answers the text unchanged when nothing is secret.
 */
export function redactJsonText(text: string, marker: string, depth = 0): string {
  let out = '';
  let last = 0;
  let i = text.indexOf('"');
  const quoted = JSON.stringify(marker);
  while (i >= 0 && i < text.length) {
    const end = stringEnd(text, i);
    const after = skipSpace(text, end);
    const decoded = stringValue(text.slice(i, end));
    if (text.charCodeAt(after) === 58 /* : */) {
      if (decoded !== undefined && isSecretName(decoded)) {
        const start = skipSpace(text, after + 1);
        const stop = start < text.length ? valueEnd(text, start) : start;
        out += `${text.slice(last, start)}${quoted}`;
        last = stop;
        i = text.indexOf('"', stop);
        continue;
      }
    } else if (decoded !== undefined && decoded.length > 0) {
      let inner = decoded;
      if (startsLikeJson(decoded)) inner = depth < MAX_NESTING ? redactJsonText(decoded, marker, depth + 1) : marker;
      if (inner !== marker) inner = redactValue(inner, marker, depth);
      if (inner !== decoded) {
        out += `${text.slice(last, i)}${JSON.stringify(inner)}`;
        last = end;
      }
    }
    i = text.indexOf('"', end);
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * Words that follow `Bearer` in prose and in the HTTP authentication grammar, and are never taken
 * for a bearer credential: what a bearer is (`a Bearer token`, `bearer tokens`, `the Bearer
 * scheme`), the parameters of a challenge (`WWW-Authenticate: Bearer realm="api",
 * error="invalid_token"`, RFC 6750 section 3), and the small words of a sentence (`Bearer or
 * Basic`, `Bearer is required`). Any other word after `Bearer` is taken for a credential (`Bearer
 * xyz` is redacted): a list of what is prose, not of what is secret, so a word it lacks is
 * redacted.
 */
const BEARER_PROSE_WORDS: readonly string[] =
  // What a bearer is; the parameters of a Bearer challenge (RFC 6750, 3); the small words of a sentence.
  (
    'token tokens access auth authentication authorization scheme schemes header headers credential ' +
    'credentials prefix type value string format challenge required missing ' +
    'realm scope error error_description error_uri ' +
    'a an the and or nor is are was in on of to for with without not only but as by from if'
  ).split(' ');

const PROSE_WORDS = new Set(BEARER_PROSE_WORDS);

/** The parameters of a Bearer challenge: `realm=`, `error=`..., prose also when `=` follows them. */
const CHALLENGE_PARAMS = new Set(['realm', 'scope', 'error', 'error_description', 'error_uri']);

/** Characters that open a placeholder: `<token>`, `{token}`, `[redacted]`, `$TOKEN`. */
const PLACEHOLDER_OPENERS = '<{[$';
/** Punctuation that may close a word in a sentence: `Bearer token:`, `(Bearer token)`, `` `Bearer token` ``. */
const CLOSING_PUNCTUATION = ".:!?)]}'`";
/** Punctuation that may open a word in a sentence: `Bearer (token)`, `` Bearer `token` ``. */
const OPENING_PUNCTUATION = "('`";

/** Whether a character code is an ASCII letter or digit. */
export function isAsciiLetterOrDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Whether a word is written as words are: `token`, `Token` or `TOKEN` (not `tOkEn`). */
function inWordCase(word: string, lower: string): boolean {
  return word === lower || word === lower.toUpperCase() || word === lower.charAt(0).toUpperCase() + lower.slice(1);
}

/**
 * Whether the text after `Bearer ` (from `start` to `end`: up to white space, `"`, `,` or `;`) is
 * prose rather than a credential ({@link redactBearer}): it holds no ASCII letter or digit (`...`,
 * `-`); or, without the punctuation that opens or closes a word in a sentence (`(`, `'`, `` ` ``
 * before it; `.`, `:`, `!`, `?`, `)`, `]`, `}`, `'`, `` ` `` after it), it is a placeholder (it
 * opens with `<`, `{`, `[` or `$` and holds no digit: `<token>`, `<access` of `<access token>`,
 * `${TOKEN}`, `[redacted]`), one of {@link BEARER_PROSE_WORDS} in lower case, capitalised or in
 * capitals (`token:`, `Realm`), or the name of a challenge parameter followed by `=` (`realm=` of
 * `realm="api"`, `error=invalid_token`).
 */
function isBearerProse(text: string, start: number, end: number): boolean {
  let from = start;
  let to = end;
  let letterOrDigit = false;
  let digit = false;
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (isAsciiLetterOrDigit(c)) letterOrDigit = true;
    if (c >= 48 && c <= 57) digit = true;
  }
  if (!letterOrDigit) return true;
  while (from < to && OPENING_PUNCTUATION.includes(text.charAt(from))) from++;
  while (to > from && CLOSING_PUNCTUATION.includes(text.charAt(to - 1))) to--;
  if (from >= to) return true;
  if (PLACEHOLDER_OPENERS.includes(text.charAt(from))) return !digit;
  const word = text.slice(from, to);
  const eq = word.indexOf('=');
  if (eq >= 0) return CHALLENGE_PARAMS.has(word.slice(0, eq).toLowerCase());
  const lower = word.toLowerCase();
  return PROSE_WORDS.has(lower) && inWordCase(word, lower);
}

/**
 * Redacts the credential after every `Bearer ` (any case, then spaces or tabs) in free text: the
 * text up to the next white space, `"`, `,` or `;`, unless it is prose ({@link isBearerProse}: a
 * placeholder such as `<token>`, or a word such as `token` or `realm`), so that `Missing bearer
 * token: send Authorization: Bearer <token>` stays as it is while `Bearer xyz` and `Bearer
 * abc.def.ghi` are redacted.
 */
function redactBearer(text: string, marker: string): string {
  const lower = text.toLowerCase();
  let i = lower.indexOf('bearer');
  if (i < 0) return text;
  let out = '';
  let last = 0;
  while (i >= 0) {
    let start = i + 6;
    const spaceFrom = start;
    while (start < text.length && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) start++;
    let end = start;
    if (start > spaceFrom) {
      while (end < text.length) {
        const c = text.charCodeAt(end);
        if (c <= 32 || c === 34 || c === 44 || c === 59) break;
        end++;
      }
    }
    if (end > start && !isBearerProse(text, start, end)) {
      out += `${text.slice(last, start)}${marker}`;
      last = end;
    }
    i = lower.indexOf('bearer', Math.max(end, i + 6));
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * Redacts every secret that free text may carry: JSON members, `name=value` parameters (in URLs,
 * forms, or alone), secrets inside URL-valued parameters, bearer tokens, and whatever is shaped
 * like a credential.
 */
export function redactText(text: string, marker: string): string {
  return redactShapes(redactBearer(redactParams(redactJsonText(text, marker), marker, 'text'), marker), marker);
}
