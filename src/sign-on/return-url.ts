/**
 * The one rule of a URL a user is sent back to (a return URL): the SDK's return handler and
 * `allowedReturnUrl` hold what they receive to it, `marketplaceUrl` and `client.sso.identifyUrl`
 * what a site gives them. No zod: the shop URL helper loads none.
 */

// Any ASCII control character, space, DEL or backslash: parsers disagree on them (WHATWG strips
// tabs and newlines and reads `\` as `/` in special URLs), so a URL holding one is refused outright.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_URL_CHARACTERS = /[\u0000-\u0020\u007f\\]/;
const ABSOLUTE_HTTP_URL = /^https?:\/\/[^/]/i;

/** What a return URL that breaks {@link parseReturnUrl}'s rule is told. */
export const RETURN_URL_RULE =
  'Parameter must be an absolute http(s) URL without credentials, backslashes, whitespace or control characters';

/**
 * A return URL, parsed, when it is one to send a user to: an absolute `http://` or `https://` URL,
 * without credentials (`user:pass@`), backslashes, whitespace or control characters, as written
 * (no parser's repairs); else `undefined`. Which origins it may have is the caller's to decide.
 */
export function parseReturnUrl(returnUrl: string): URL | undefined {
  if (UNSAFE_URL_CHARACTERS.test(returnUrl) || !ABSOLUTE_HTTP_URL.test(returnUrl)) return undefined;
  let url: URL;
  try {
    url = new URL(returnUrl); // no base: a relative URL throws
  } catch {
    return undefined;
  }
  const http = url.protocol === 'https:' || url.protocol === 'http:';
  return http && url.username === '' && url.password === '' ? url : undefined;
}
