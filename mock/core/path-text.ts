/** Small rules of a path's text, shared by the router, the faults and the MSW adapter; no imports. */

/** `text`, matched literally in a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The same path with its trailing slash taken off or put on (none for `/`): routes answer both alike. */
export function otherSlash(path: string): string | undefined {
  if (path.length <= 1) return undefined;
  return path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
}
