/**
 * The one list of names whose values are secrets, and the redaction of text that may carry them.
 * The SDK's logger (`src/logger.ts`) and the reference platform's request journal
 * (`mock/core/journal.ts`) both redact from here, so a name added once is redacted everywhere.
 *
 * Names are compared after decoding (`client\u005fsecret` in JSON, `client%5Fsecret` in a form
 * or query are `client_secret`) and normalising (lower case, `_` and `-` dropped), so
 * `clientSecret`, `client_secret` and `Client-Secret` are one name. Every function here is a
 * forward scan, linear in the text: no recursion on JSON nesting (URLs inside URL-valued
 * parameters are followed three levels deep), no regular expression.
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
];

function normalise(name: string): string {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 95 /* _ */ || c === 45 /* - */) continue;
    out += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : name[i];
  }
  return out;
}

const NORMALISED = new Set(SECRET_NAMES.map(normalise));
/** The longest normalised name: a longer name is never a secret, whatever it spells. */
const LONGEST = Math.max(...[...NORMALISED].map((n) => n.length));

/** Whether the value of a field, parameter, header or object key of this name is a secret. */
export function isSecretName(name: string): boolean {
  // A name with separators is at most twice as long as its normalised form, in any real use.
  if (name.length > 4 * LONGEST) return false;
  return NORMALISED.has(normalise(name));
}

/** `%XX` escapes and `+` decoded as a form or query does; a broken escape stays as it is (as URLSearchParams does). */
export function decodeParam(raw: string): string {
  const plus = raw.includes('+') ? raw.split('+').join(' ') : raw;
  if (!plus.includes('%')) return plus;
  try {
    return decodeURIComponent(plus);
  } catch {
    for (const [key] of new URLSearchParams(`${raw}=`)) return key;
    return plus;
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

/** How deep URLs inside URL-valued parameters are followed (a return URL inside a return URL). */
const MAX_URL_NESTING = 3;

/**
 * Redacts `name=value` parameters whose decoded name is a secret, in a form body (`kind` `form`),
 * a URL or query string (`url`), or free text (`text`: a log message, where a value also ends at
 * white space). A value that is itself a URL with secret parameters (a ticket inside a
 * `returnUrl`) has those redacted, and is re-encoded. Answers the text unchanged when nothing is secret.
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
    if (isSecretName(decodeParam(text.slice(i, eq)))) {
      out += `${text.slice(last, eq + 1)}${marker}`;
      last = end;
    } else if (depth < MAX_URL_NESTING && rawValue.length > 0) {
      const value = decodeParam(rawValue);
      if (value.includes('=')) {
        const inner = redactParams(value, marker, 'url', depth + 1);
        if (inner !== value) {
          out += `${text.slice(last, eq + 1)}${encodeURIComponent(inner)}`;
          last = end;
        }
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
function stringValue(literal: string): string | undefined {
  if (!literal.includes('\\')) return literal.slice(1, -1);
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The index after the JSON value that starts at `start`: a string, an object or array (balanced), or a scalar. */
function valueEnd(text: string, start: number): number {
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

function skipSpace(text: string, start: number): number {
  let i = start;
  while (i < text.length && text.charCodeAt(i) <= 32) i++;
  return i;
}

/**
 * Redacts, in JSON text (valid or not, or JSON inside a longer text), the value of every member
 * whose decoded name is a secret (the whole value, when it is an object or an array), and secret
 * parameters inside string values that are URLs. Answers the text unchanged when nothing is secret.
 */
export function redactJsonText(text: string, marker: string): string {
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
    } else if (decoded?.includes('=')) {
      const inner = redactParams(decoded, marker, 'url');
      if (inner !== decoded) {
        out += `${text.slice(last, i)}${JSON.stringify(inner)}`;
        last = end;
      }
    }
    i = text.indexOf('"', end);
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Redacts the token after every `Bearer ` (any case) in free text. */
export function redactBearer(text: string, marker: string): string {
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
    if (end > start) {
      out += `${text.slice(last, start)}${marker}`;
      last = end;
    }
    i = lower.indexOf('bearer', Math.max(end, i + 6));
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * Redacts every secret that free text may carry: JSON members, `name=value` parameters (in URLs,
 * forms, or alone), secrets inside URL-valued parameters, and bearer tokens.
 */
export function redactText(text: string, marker: string): string {
  return redactBearer(redactParams(redactJsonText(text, marker), marker, 'text'), marker);
}
