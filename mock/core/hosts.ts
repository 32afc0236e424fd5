/**
 * Host names: which are loopback (this machine only), and whether a request's `Host` is one the
 * standalone server answers (the defence against DNS rebinding, where a web page's own host name
 * is made to resolve to 127.0.0.1 and then reads the platform as its own origin).
 */

/** An IPv4 address in dotted form: four decimal octets. */
function ipv4Octets(host: string): number[] | undefined {
  const parts = host.split('.');
  if (parts.length !== 4) return undefined;
  const octets: number[] = [];
  for (const part of parts) {
    if (part.length === 0 || part.length > 3) return undefined;
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      if (c < 48 || c > 57) return undefined;
    }
    const n = Number(part);
    if (n > 255) return undefined;
    octets.push(n);
  }
  return octets;
}

/** Whether `hostname` is an IP address literal (IPv4 dotted, or IPv6 with or without brackets). */
export function isIpLiteral(hostname: string): boolean {
  return ipv4Octets(hostname) !== undefined || hostname.includes(':');
}

/**
 * Whether a host name (as a URL's `hostname` spells it, lower case) stays on this machine:
 * `localhost` and `*.localhost` (RFC 6761), 127.0.0.0/8, and `::1`.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '::1') return true;
  return ipv4Octets(host)?.[0] === 127;
}

/** An IP address the server listens on that means "every interface". */
function isUnspecifiedAddress(address: string): boolean {
  return address === '0.0.0.0' || address === '::' || address === '[::]' || address === '';
}

/**
 * The host names a server answers besides loopback ones: each an exact name, or `.example.com`
 * for that name and every name under it; or `all` to answer any `Host`.
 */
export type AllowedHosts = readonly string[] | 'all';

/**
 * The host name of a `Host` header, normalised as a URL does (lower case, IPv6 in brackets);
 * undefined when the header is missing or not a valid host[:port].
 */
export function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (hostHeader === undefined || hostHeader === '') return undefined;
  // Nothing but host[:port]: no credentials, path, query or white space smuggled in the header.
  for (let i = 0; i < hostHeader.length; i++) {
    const c = hostHeader.charCodeAt(i);
    if (c <= 32 || c === 47 || c === 63 || c === 35 || c === 64 || c === 92 || c >= 127) return undefined;
  }
  try {
    return new URL(`http://${hostHeader}/`).hostname;
  } catch {
    return undefined;
  }
}

/** Whether the server answers a request whose `Host` names `hostname`. */
export function isAllowedHost(hostname: string, allowed: AllowedHosts, boundAddress?: string): boolean {
  if (allowed === 'all' || isLoopbackHost(hostname)) return true;
  // The address the server was told to listen on, when it is one: an IP literal cannot be rebound.
  if (boundAddress !== undefined && !isUnspecifiedAddress(boundAddress)) {
    const bound = boundAddress.includes(':') && !boundAddress.startsWith('[') ? `[${boundAddress}]` : boundAddress;
    if (hostname === bound.toLowerCase()) return true;
  }
  const host = hostname.replace(/\.$/, '');
  for (const entry of allowed) {
    const rule = entry.toLowerCase();
    if (rule.startsWith('.')) {
      if (host === rule.slice(1) || host.endsWith(rule)) return true;
    } else if (host === rule) return true;
  }
  return false;
}
