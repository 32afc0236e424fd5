/**
 * The journal's scans of request bodies the platform does not parse, beside those of
 * `src/secrets.ts` (which the SDK's logger shares): JSON-like text whose keys are in single quotes
 * or bare, and multipart bodies. Only the platform journals such bodies, so the SDK does not carry
 * them. Forward scans, linear in the text, as every redaction is.
 */
import {
  decodeParam,
  isAsciiLetterOrDigit,
  isSecretName,
  nameTail,
  redactValue,
  skipSpace,
  stringValue,
  valueEnd,
} from '../../src/secrets.js';

/** Whether a character may be part of a bare (unquoted) key: an identifier's, `-`, `\` (escapes) or beyond ASCII. */
function isBareNameChar(c: number): boolean {
  return isAsciiLetterOrDigit(c) || c === 95 /* _ */ || c === 36 /* $ */ || c === 45 /* - */ || c === 92 || c > 127;
}

/** The index after the literal quoted by `quote` that starts at `start`; -1 when it is not closed. */
function quotedEnd(text: string, start: number, quote: number): number {
  let i = start + 1;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) i += 2;
    else if (c === quote) return i + 1;
    else i++;
  }
  return -1;
}

/**
 * A name written with single quotes (its content) or bare, `\` escapes decoded as a JSON string's
 * (`client\u005fsecret`, `\'`); the text as it is when they do not decode.
 */
function looseName(raw: string): string {
  if (!raw.includes('\\')) return raw;
  let literal = '"';
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 92 && raw.charCodeAt(i + 1) === 39 /* ' */) {
      literal += "'";
      i++;
    } else if (c === 92) {
      literal += raw.slice(i, i + 2);
      i++;
    } else literal += c === 34 ? '\\"' : raw.charAt(i);
  }
  return stringValue(`${literal}"`) ?? raw;
}

/**
 * The index after the value that starts at `start` in JSON-like text: a string quoted with `"` or
 * `'` (to its closing quote), an object or array (balanced, strings of either quote skipped), or
 * else up to the next `,`, `}`, `]` or white space. An unclosed string or object runs to the end.
 */
function looseValueEnd(text: string, start: number): number {
  const n = text.length;
  const first = text.charCodeAt(start);
  if (first === 34 || first === 39) {
    const end = quotedEnd(text, start, first);
    return end < 0 ? n : end;
  }
  if (first !== 123 && first !== 91) return valueEnd(text, start);
  let depth = 0;
  let i = start;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      const end = quotedEnd(text, i, c);
      if (end < 0) return n;
      i = end;
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return n;
}

/**
 * Redacts, in text that is JSON-like but not JSON (JSON5, a JavaScript object literal), the value
 * of every member whose key is written with single quotes (`{'client_secret': 'x'}`) or bare (an
 * identifier, `{client_secret: "x"}`) and is a secret name once its `\` escapes are decoded: a
 * quoted value to its closing quote, an object or array to its balanced end, else up to the next
 * `,`, `}`, `]` or white space. A single-quoted value loses what {@link redactValue} redacts (the
 * secret parameters of a URL). Keys in double quotes are {@link redactJsonText}'s: their strings
 * are skipped whole here, and valid JSON is answered unchanged. A quote that is never closed is
 * read as an ordinary character, so it hides nothing after it. One forward scan.
 */
export function redactJsonLikeKeys(text: string, marker: string): string {
  let out = '';
  let last = 0;
  const n = text.length;
  // Once a literal of a quote runs to the end unclosed, every later one of that quote does too.
  let doubleOpen = true;
  let singleOpen = true;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    let keyEnd: number;
    let raw: string;
    if (c === 34 || c === 39) {
      if (!(c === 34 ? doubleOpen : singleOpen)) {
        i++;
        continue;
      }
      const end = quotedEnd(text, i, c);
      if (end < 0) {
        if (c === 34) doubleOpen = false;
        else singleOpen = false;
        i++;
        continue;
      }
      if (c === 34) {
        i = end;
        continue;
      }
      keyEnd = end;
      raw = text.slice(i + 1, end - 1);
    } else if (isBareNameChar(c)) {
      keyEnd = i + 1;
      while (keyEnd < n && isBareNameChar(text.charCodeAt(keyEnd))) keyEnd++;
      raw = text.slice(i, keyEnd);
    } else {
      i++;
      continue;
    }
    const after = skipSpace(text, keyEnd);
    if (text.charCodeAt(after) === 58 /* : */) {
      // Only the key's tail is decoded and judged (`isSecretName`'s bound): a key of megabytes costs no more.
      const tail = nameTail(raw);
      const name = looseName(tail);
      if (isSecretName(name) || (name !== tail && isSecretName(tail))) {
        const start = skipSpace(text, after + 1);
        const stop = start < n ? looseValueEnd(text, start) : start;
        const q = text.charCodeAt(start) === 39 ? "'" : '"';
        out += `${text.slice(last, start)}${q}${marker}${q}`;
        last = stop;
        i = stop;
        continue;
      }
    } else if (c === 39 && raw.length > 0) {
      const inner = redactValue(raw, marker);
      if (inner !== raw) {
        out += `${text.slice(last, i)}'${inner}'`;
        last = keyEnd;
      }
    }
    i = keyEnd;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Whether `text[at, at + 4)` is `name` in any case. */
function isNameWord(text: string, at: number): boolean {
  if (at < 0) return false;
  for (let k = 0; k < 4; k++) if ((text.charCodeAt(at + k) | 0x20) !== 'name'.charCodeAt(k)) return false;
  return true;
}

/** The start of the line after the one that holds `from`; -1 when it is the last. */
function nextLine(text: string, from: number): number {
  const lf = text.indexOf('\n', from);
  return lf < 0 ? -1 : lf + 1;
}

/** The longest boundary a multipart body may declare (RFC 2046: 70 characters), with its leading `--`. */
const LONGEST_DELIMITER = 72;

/** The delimiter of a multipart text: its first line that starts with `--`, without the line break and trailing blanks. */
function multipartDelimiter(text: string): string | undefined {
  for (let line = 0; line >= 0 && line < text.length; line = nextLine(text, line)) {
    if (!text.startsWith('--', line)) continue;
    let end = line;
    while (end < text.length && text.charCodeAt(end) !== 13 && text.charCodeAt(end) !== 10) end++;
    while (end > line + 2 && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
    return end - line > LONGEST_DELIMITER ? undefined : text.slice(line, end);
  }
  return undefined;
}

/**
 * Redacts, in a `multipart/form-data` body, the value of every part whose `name="..."` (or
 * `name=...`, or `name*=UTF-8''...`) is a secret name (plain or percent-decoded): from after the
 * blank line that ends the part's headers to the line break before the next delimiter line (the
 * body's first line that starts with `--`), or to the end when there is none. The boundary is read
 * from the body itself, so the text alone is enough (the journal's and the logger's case); a part
 * that never ends is redacted to the end. Forward scans, linear in the text.
 */
export function redactMultipart(text: string, marker: string): string {
  let out = '';
  let last = 0;
  const n = text.length;
  let delimiter: string | undefined | null = null;
  let eq = text.indexOf('=');
  while (eq >= 0) {
    // `name` (or `name*`), then blanks, before the `=`; not the end of a longer word (`filename=`).
    let at = eq;
    while (at > last && (text.charCodeAt(at - 1) === 32 || text.charCodeAt(at - 1) === 9)) at--;
    if (text.charCodeAt(at - 1) === 42 /* * */) at--;
    at -= 4;
    const before = at > 0 ? text.charCodeAt(at - 1) : 32;
    if (!isNameWord(text, at) || isBareNameChar(before) || at < last) {
      eq = text.indexOf('=', eq + 1);
      continue;
    }
    let start = eq + 1;
    while (start < n && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) start++;
    let end = start;
    let raw: string;
    if (text.charCodeAt(start) === 34 /* " */) {
      end = start + 1;
      while (end < n) {
        const c = text.charCodeAt(end);
        if (c === 34 || c === 13 || c === 10) break;
        end += c === 92 ? 2 : 1;
      }
      raw = text.slice(start + 1, Math.min(end, n));
    } else {
      while (end < n) {
        const c = text.charCodeAt(end);
        if (c <= 32 || c === 59 /* ; */) break;
        end++;
      }
      raw = text.slice(start, end);
    }
    // Only the name's tail is read (`isSecretName`'s bound): without white space, the rest of a
    // body is one "name", which must cost no more than a short one.
    const tail = nameTail(raw);
    const ext = tail.indexOf("''");
    const named = ext >= 0 ? tail.slice(ext + 2) : tail;
    const decoded = decodeParam(named);
    // Each spelling judged once: a body of a million `name="a"` costs a million checks, not three.
    const secret =
      isSecretName(tail) || (named !== tail && isSecretName(named)) || (decoded !== named && isSecretName(decoded));
    if (!secret) {
      eq = text.indexOf('=', end);
      continue;
    }
    // The blank line that ends the part's headers.
    let value = -1;
    for (let line = nextLine(text, end); line >= 0; line = nextLine(text, line)) {
      if (text.charCodeAt(line) === 10) value = line + 1;
      else if (text.charCodeAt(line) === 13 && text.charCodeAt(line + 1) === 10) value = line + 2;
      if (value >= 0) break;
    }
    // No blank line after this name: no part has a value from here on.
    if (value < 0) break;
    if (delimiter === null) delimiter = multipartDelimiter(text);
    let stop = n;
    if (delimiter !== undefined) {
      for (let line = value; line >= 0; line = nextLine(text, line)) {
        if (!text.startsWith(delimiter, line)) continue;
        const c = text.charCodeAt(line + delimiter.length);
        if (!(Number.isNaN(c) || c === 13 || c === 10 || c === 45 /* - */ || c === 32 || c === 9)) continue;
        stop = line;
        if (stop > value && text.charCodeAt(stop - 1) === 10) stop--;
        if (stop > value && text.charCodeAt(stop - 1) === 13) stop--;
        break;
      }
    }
    out += `${text.slice(last, value)}${marker}`;
    last = stop;
    eq = text.indexOf('=', stop);
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * A path that starts `//` and names credentials before its first segment's `@`
 * (`//user:password@host/x`, as a client may send a target it meant as a URL): that part redacted,
 * since a path keeps it as text and no name says it is secret.
 */
export function redactPathUserinfo(path: string, marker: string): string {
  if (!path.startsWith('//')) return path;
  const end = path.slice(2).search(/[/?#]/);
  const head = end < 0 ? path.slice(2) : path.slice(2, end + 2);
  const at = head.lastIndexOf('@');
  return at < 0 ? path : `//${marker}${path.slice(2 + at)}`;
}
