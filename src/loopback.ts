/**
 * Where plain http may carry the SDK's secrets (a client's hosts, a shop URL with a ticket): this
 * machine alone. One rule for the client and the sign-on helpers.
 */

/**
 * Whether a URL's host name (`URL.hostname`) is this machine's own: `localhost`, 127.0.0.0/8,
 * `[::1]`. Plain http stays on the machine there: nothing on the network sees a secret. Not the
 * subdomains of `localhost`, which the system's resolver may send anywhere.
 */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name === 'localhost' || name === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/**
 * Whether a URL may carry a secret (a ticket) over the network: https, or plain http to this
 * machine ({@link isLoopbackHostname}).
 */
export function isSecureUrl(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHostname(url.hostname));
}

/**
 * Whether a browser keeps a URL's host name on this machine: {@link isLoopbackHostname}'s names and
 * the subdomains of `localhost` (`site.localhost`), which browsers resolve to loopback themselves
 * (RFC 6761, section 6.3). For URLs a browser follows (a return URL), not ones the SDK fetches.
 */
export function isBrowserLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return isLoopbackHostname(name) || name.endsWith('.localhost');
}
