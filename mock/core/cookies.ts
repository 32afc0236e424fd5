/** Cookies a browser sends: the shop's session and CSRF cookies, and the SSO host's session cookie. */

/** The value of the request's cookie `name` (headers as the core reads them, names in lower case). */
export function cookieOf(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const cookie = headers.cookie;
  if (cookie === undefined) return undefined;
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
