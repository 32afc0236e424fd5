/**
 * What the standalone server's request log (`onRequest`, the CLI's lines) shows of a request: its
 * target and its refusal, with secrets redacted by the journal's rules.
 */
import { isSecretName, redactParams, redactShapes, redactText } from '../../src/secrets.js';
import { cutRefusalDetail, REDACTED, type Refusal } from '../core/journal.js';
import { redactPathUserinfo } from '../core/loose-redaction.js';
import type { Route } from '../core/route.js';
import { PathTemplate } from '../core/router.js';
import { NAMESPACE_PREFIX } from './namespaces.js';
import { absoluteForm } from './request-head.js';

/** Whether a template segment is a parameter with a secret name (`{sid}`). */
function secretParam(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}') && isSecretName(segment.slice(1, -1));
}

/** The path templates of routes with a secret parameter in the path: `/__admin/sso/sessions/{sid}`. */
export function secretPathsOf(routes: readonly Route[]): readonly PathTemplate[] {
  return routes.flatMap((route) =>
    (typeof route.path === 'string' ? [route.path] : Object.values(route.path))
      .filter((path) => path.split('/').some(secretParam))
      .map((path) => new PathTemplate(path)),
  );
}

/**
 * A request target as the request log prints it: the path as the platform resolves it (dot
 * segments removed; an absolute URL loses its origin), a secret path parameter (an SSO session's
 * `sid`), secret query parameters and whatever is shaped like a credential redacted, by the
 * journal's rule.
 */
export function loggedTarget(target: string, secretPaths: readonly PathTemplate[]): string {
  return redactShapes(namedTarget(target, secretPaths), REDACTED);
}

/**
 * A request target with its secret path and query parameters, by name, redacted. A path is matched
 * as the router matches it (`PathTemplate`), in a namespace (`/_ns/{name}/...`) after its two segments.
 */
function namedTarget(target: string, secretPaths: readonly PathTemplate[]): string {
  // As the server reads it: a path (`//x` stays a path), or an absolute URL, of which the path is kept.
  const given = target.startsWith('/') ? target : absoluteForm(target)?.path;
  // `//user:pw@host/x` is a path here, its credentials text: redacted as before a host.
  const path = given === undefined ? undefined : redactPathUserinfo(given, REDACTED);
  // A target the server refuses is shown as sent, but for credentials before a host (`//user:pw@`).
  if (path === undefined)
    return redactParams(target.replace(/^([^/]*\/\/)[^/?#]*@/, `$1${REDACTED}@`), REDACTED, 'url');
  let url: URL;
  try {
    url = new URL(`http://platform.invalid${path}`);
  } catch {
    return redactParams(target, REDACTED, 'url');
  }
  const segments = url.pathname.split('/');
  const skip = url.pathname.startsWith(NAMESPACE_PREFIX) && segments.length > 3 ? 2 : 0;
  const routed = skip === 0 ? url.pathname : `/${segments.slice(skip + 1).join('/')}`;
  for (const template of secretPaths) {
    if (!template.match(routed)) continue;
    template.segments.forEach((t, i) => {
      if (secretParam(t)) segments[i + skip] = REDACTED;
    });
  }
  return redactParams(`${segments.join('/')}${url.search}`, REDACTED, 'url');
}

/**
 * A refusal as the request log prints it: a path in its detail (`No route for GET /...`) as the log
 * shows it, also when the detail names it as a namespace's platform routed it (after
 * `/_ns/{name}`), and the rest redacted as the journal redacts a detail (free text: a secret
 * `name=value`, a value quoted that is shaped like a credential, such as an SSO token's `aud`);
 * the words of the message are left as they are.
 */
export function loggedRefusal(refusal: Refusal | undefined, target: string, logged: string): Refusal | undefined {
  if (!refusal) return undefined;
  let raw: string | undefined;
  try {
    raw = new URL(target.startsWith('/') ? `http://platform.invalid${target}` : target).pathname;
  } catch {
    raw = undefined;
  }
  const shown = logged.split('?')[0]!;
  let detail = refusal.detail;
  if (raw !== undefined && raw !== shown) {
    detail = detail.replaceAll(raw, shown);
    // The path after a namespace's two segments, as `namedTarget` reads it and the namespace's platform names it.
    const routed = (path: string) => {
      const segments = path.split('/');
      return path.startsWith(NAMESPACE_PREFIX) && segments.length > 3 ? `/${segments.slice(3).join('/')}` : path;
    };
    const [rawRouted, shownRouted] = [routed(raw), routed(shown)];
    if (rawRouted !== raw && rawRouted !== shownRouted) detail = detail.replaceAll(rawRouted, shownRouted);
  }
  // Cut as the journal cuts it: a detail may quote what the request gave (an unknown parameter's name), 1 MiB long.
  return { ...refusal, detail: cutRefusalDetail(redactText(detail, REDACTED)) };
}
