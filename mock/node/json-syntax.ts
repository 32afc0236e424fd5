/**
 * Where and why a text is not JSON, said without quoting it. `JSON.parse`'s message quotes the text
 * around the fault (`Unexpected token 'T', ..."t_secret":TOPSECRETx"... is not valid JSON`), and a
 * seed or state file holds secrets: a message about one names a line, a column and a reason only.
 */

/** Why a text is not JSON, and where: the index of the character at fault (the text's length when it ends too soon). */
interface Fault {
  at: number;
  why: string;
}

/** JSON's white space: space, tab, line feed, carriage return. */
function skipSpace(text: string, from: number): number {
  let i = from;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
  }
  return i;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** The index after the string that starts at `start` (a `"`), or its fault. */
function stringEnd(text: string, start: number): number | Fault {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) return i + 1;
    if (c < 32) return { at: i, why: 'a control character (a line break, a tab...) inside a string, unescaped' };
    if (c === 92 /* \ */) {
      const e = text.charCodeAt(i + 1);
      if (e === 117 /* u */) {
        for (let k = i + 2; k < i + 6; k++)
          if (!isHexDigit(text.charCodeAt(k))) return { at: i, why: 'a \\u escape without four hexadecimal digits' };
        i += 6;
        continue;
      }
      // " \ / b f n r t
      if (![34, 92, 47, 98, 102, 110, 114, 116].includes(e)) return { at: i, why: 'an escape JSON does not know' };
      i += 2;
      continue;
    }
    i++;
  }
  return { at: text.length, why: 'a string is not closed' };
}

/** The index after the number that starts at `start` (a `-` or a digit), or its fault. */
function numberEnd(text: string, start: number): number | Fault {
  let i = start;
  if (text.charCodeAt(i) === 45 /* - */) i++;
  if (text.charCodeAt(i) === 48 /* 0 */) i++;
  else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
  else return { at: i, why: 'a number without digits' };
  if (text.charCodeAt(i) === 46 /* . */) {
    i++;
    if (!isDigit(text.charCodeAt(i))) return { at: i, why: 'a number without digits after its decimal point' };
    while (isDigit(text.charCodeAt(i))) i++;
  }
  if ((text.charCodeAt(i) | 0x20) === 101 /* e */) {
    i++;
    if (text.charCodeAt(i) === 43 || text.charCodeAt(i) === 45) i++;
    if (!isDigit(text.charCodeAt(i))) return { at: i, why: 'a number without digits in its exponent' };
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

/** What is expected next. */
type Expected = 'value' | 'first value' | 'name' | 'first name' | 'colon' | 'after';

/**
 * The first fault of a text that is not JSON, as `JSON.parse` reads it; undefined when it is JSON.
 * One forward scan, with a stack of the open objects and arrays (so no nesting overflows it).
 */
export function jsonFault(text: string): Fault | undefined {
  const open: number[] = [];
  let expected: Expected = 'value';
  let i = 0;
  for (;;) {
    i = skipSpace(text, i);
    if (i >= text.length) {
      if (expected === 'after' && open.length === 0) return undefined;
      return { at: i, why: text.trim() === '' ? 'the text is empty' : 'the text ends before the JSON does' };
    }
    const c = text.charCodeAt(i);
    let end: number | Fault;
    if (expected === 'value' || expected === 'first value') {
      if (expected === 'first value' && c === 93 /* ] */) {
        open.pop();
        expected = 'after';
        i++;
        continue;
      }
      if (c === 123 /* { */ || c === 91 /* [ */) {
        open.push(c);
        expected = c === 123 ? 'first name' : 'first value';
        i++;
        continue;
      }
      if (c === 34) end = stringEnd(text, i);
      else if (c === 45 || isDigit(c)) end = numberEnd(text, i);
      else {
        const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, i));
        if (literal === undefined)
          return {
            at: i,
            why: c === 0xfeff ? 'a byte order mark, which JSON does not allow' : 'a value was expected here',
          };
        end = i + literal.length;
      }
      if (typeof end !== 'number') return end;
      i = end;
      expected = 'after';
    } else if (expected === 'name' || expected === 'first name') {
      if (expected === 'first name' && c === 125 /* } */) {
        open.pop();
        expected = 'after';
        i++;
        continue;
      }
      if (c !== 34) return { at: i, why: 'a property name in double quotes was expected here' };
      end = stringEnd(text, i);
      if (typeof end !== 'number') return end;
      i = end;
      expected = 'colon';
    } else if (expected === 'colon') {
      if (c !== 58 /* : */) return { at: i, why: "a ':' was expected after a property name" };
      i++;
      expected = 'value';
    } else {
      const top = open.at(-1);
      if (top === undefined) return { at: i, why: 'more text follows the JSON value' };
      if (c === 44 /* , */) {
        expected = top === 123 ? 'name' : 'value';
        i++;
      } else if (c === (top === 123 ? 125 : 93)) {
        open.pop();
        i++;
      } else return { at: i, why: top === 123 ? "a ',' or '}' was expected here" : "a ',' or ']' was expected here" };
    }
  }
}

/**
 * Why a text that `JSON.parse` refused is not JSON, where, and nothing of what it holds: `line 3,
 * column 14: a value was expected here`. Lines are counted from 1 at line feeds, columns from 1 in
 * UTF-16 code units, as editors that count characters do (beyond the Basic Multilingual Plane a
 * character counts two).
 */
export function jsonSyntaxError(text: string): string {
  const fault = jsonFault(text);
  // JSON.parse refused it, yet no fault was found: say so, without its message (which quotes the text).
  if (fault === undefined) return 'JSON.parse refused it';
  let line = 1;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k >= 0 && k < fault.at; k = text.indexOf('\n', k + 1)) {
    line++;
    lineStart = k + 1;
  }
  return `line ${line}, column ${fault.at - lineStart + 1}: ${fault.why}`;
}
