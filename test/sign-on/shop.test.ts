import { describe, expect, it } from 'vitest';
import {
  allowedReturnUrl,
  marketplaceUrl,
  SignOnConfigurationError,
  SignOnValidationError,
} from '../../src/sign-on/index.js';

const SHOP = 'https://shop.example';
const TICKET = 'tkt-0123456789';

/** The decoded path segments after `/marketplace/`. */
function ids(href: string): string[] {
  const path = new URL(href).pathname;
  const rest = path.slice(path.indexOf('/marketplace/') + '/marketplace/'.length);
  return rest.split('/').map(decodeURIComponent);
}

describe('endpoint 25 marketplace URL', () => {
  it('is {shop_url}/marketplace/{groupId}/{marketplaceId}?at=<ticket>', () => {
    expect(marketplaceUrl(SHOP, { groupId: 'news', marketplaceId: 'main', ticket: TICKET })).toBe(
      `${SHOP}/marketplace/news/main?at=${TICKET}`,
    );
  });

  it.each([
    ['https://shop.example', 'https://shop.example/marketplace/g/m?at=t'],
    ['https://shop.example/', 'https://shop.example/marketplace/g/m?at=t'],
    ['https://shop.example/store', 'https://shop.example/store/marketplace/g/m?at=t'],
    ['https://shop.example/store/', 'https://shop.example/store/marketplace/g/m?at=t'],
    ['https://shop.example/a/b/', 'https://shop.example/a/b/marketplace/g/m?at=t'],
  ])('keeps the path prefix of %s', (shop, expected) => {
    expect(marketplaceUrl(shop, { groupId: 'g', marketplaceId: 'm', ticket: 't' })).toBe(expected);
  });

  it('accepts a URL object as the shop URL', () => {
    expect(marketplaceUrl(new URL(SHOP), { groupId: 'g', marketplaceId: 'm', ticket: 't' })).toBe(
      `${SHOP}/marketplace/g/m?at=t`,
    );
  });

  it.each([
    ['spaces', 'group one', 'market place'],
    ['unicode', 'Zeitung-\u00fcber-\u00c4rger \u{1F4F0}', '\u65e5\u672c\u8a9e'],
    ['ampersands', 'a&b', 'c&d=e'],
    ['hashes and question marks', 'a#b', 'c?d'],
    ['slashes', 'a/b', '../c/d'],
    ['percent signs', '%2e%2e', '100%'],
    ['plus signs', 'a+b', 'c d+e'],
  ])('encodes %s in ids so that each id stays one path segment', (_what, groupId, marketplaceId) => {
    const href = marketplaceUrl(SHOP, { groupId, marketplaceId, ticket: TICKET });
    expect(ids(href)).toEqual([groupId, marketplaceId]);
    expect(new URL(href).hash).toBe('');
    expect([...new URL(href).searchParams.keys()]).toEqual(['at']);
  });

  it.each(['.', '..'])('refuses the dot segment %j as an id (a URL parser would resolve it away)', (dot) => {
    expect(() => marketplaceUrl(SHOP, { groupId: dot, marketplaceId: 'm', ticket: 't' })).toThrow(
      SignOnValidationError,
    );
    expect(() => marketplaceUrl(SHOP, { groupId: 'g', marketplaceId: dot, ticket: 't' })).toThrow(
      SignOnValidationError,
    );
  });

  it('refuses an id with a lone surrogate (not encodable)', () => {
    expect(() => marketplaceUrl(SHOP, { groupId: '\ud800', marketplaceId: 'm', ticket: 't' })).toThrow(
      SignOnValidationError,
    );
  });

  it('puts the ticket in at, URL-encoded', () => {
    const ticket = 'a+b/c=d&e f#g';
    const url = new URL(marketplaceUrl(SHOP, { groupId: 'g', marketplaceId: 'm', ticket }));
    expect(url.searchParams.get('at')).toBe(ticket);
    expect([...url.searchParams.keys()]).toEqual(['at']);
  });

  it('carries a returnUrl with its own query and fragment as one parameter', () => {
    const returnUrl = 'https://site.example/back?x=1&y=two%20words&at=fake#section';
    const url = new URL(marketplaceUrl(SHOP, { groupId: 'g', marketplaceId: 'm', ticket: TICKET, returnUrl }));
    expect(url.searchParams.get('returnUrl')).toBe(returnUrl);
    expect(url.searchParams.getAll('at')).toEqual([TICKET]);
    expect([...url.searchParams.keys()]).toEqual(['at', 'returnUrl']);
    expect(url.hash).toBe('');
  });

  it('adds campaign and period when given', () => {
    const url = new URL(
      marketplaceUrl(SHOP, {
        groupId: 'g',
        marketplaceId: 'm',
        ticket: TICKET,
        campaign: 'SUMMER & SUN',
        period: 'p1',
      }),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({ at: TICKET, campaign: 'SUMMER & SUN', period: 'p1' });
  });

  it.each([
    ['groupId', { groupId: '' }],
    ['marketplaceId', { marketplaceId: '' }],
    ['ticket', { ticket: '' }],
    ['returnUrl', { returnUrl: 'javascript:alert(1)' }],
    ['returnUrl', { returnUrl: '/relative' }],
    ['campaign', { campaign: '' }],
  ])('refuses an invalid %s (MarketplaceUrlParams), naming the field', (field, patch) => {
    const params = { groupId: 'g', marketplaceId: 'm', ticket: TICKET, ...patch };
    const error = (() => {
      try {
        marketplaceUrl(SHOP, params);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SignOnValidationError);
    expect((error as SignOnValidationError).field).toBe(field);
    expect((error as Error).message).not.toContain(TICKET);
  });

  /** What `marketplaceUrl` throws for these parameters, or undefined when it builds the URL. */
  function refusal(patch: Record<string, unknown>): unknown {
    try {
      marketplaceUrl(SHOP, { groupId: 'g', marketplaceId: 'm', ticket: TICKET, ...patch } as never);
    } catch (error) {
      return error;
    }
    return undefined;
  }

  it.each([
    ['credentials (userinfo)', 'https://user:pass@site.example/back'],
    ['a password without a user name', 'https://:pass@site.example/back'],
    ['backslashes', 'https:\\\\site.example\\back'],
    ['a leading space', ' https://site.example/back'],
    ['a tab', 'https://site.exa\tmple/back'],
    ['a line break', 'https://site.example/back\n'],
    ['a NUL', 'https://site.example/\u0000back'],
    ['another scheme (javascript:)', 'javascript:alert(1)'],
    ['another scheme (ftp:)', 'ftp://site.example/back'],
    ['a relative URL', '/back'],
    ['a scheme-relative URL', '//site.example/back'],
  ])(
    'refuses a returnUrl with %s before building the URL, naming returnUrl, as the return handler refuses it',
    (_, returnUrl) => {
      const error = refusal({ returnUrl });
      expect(error).toBeInstanceOf(SignOnValidationError);
      expect(error).toMatchObject({
        field: 'returnUrl',
        message:
          'returnUrl: Parameter must be an absolute http(s) URL without credentials, backslashes, whitespace or control characters',
      });
      // The return handler's own check refuses it too: one rule.
      expect(allowedReturnUrl(returnUrl, ['https://site.example'])).toBeUndefined();
    },
  );

  it.each(['http://site.example/back', 'http://localhost.example/back', 'http://10.0.0.1/back'])(
    'refuses a returnUrl %j in plain http beyond a loopback host: the shop would send the ticket there in clear',
    (returnUrl) => {
      expect(refusal({ returnUrl })).toMatchObject({
        constructor: SignOnValidationError,
        field: 'returnUrl',
        message: 'returnUrl: Parameter must use https (http only on a loopback host): the shop sends a ticket to it',
      });
    },
  );

  it.each([
    'https://site.example/back?x=1#f',
    'http://localhost:3000/back',
    'http://127.0.0.1:8080/',
    'http://[::1]/back',
    // A browser resolves the subdomains of localhost to loopback itself (RFC 6761, section 6.3).
    'http://site.localhost:3000/back',
    'http://SITE.localhost./back',
  ])('takes the returnUrl %j: https, or http on a host the browser keeps on this machine', (returnUrl) => {
    expect(refusal({ returnUrl })).toBeUndefined();
  });

  it.each([
    ['groupId', '\ud800'],
    ['marketplaceId', 'm\udfff'],
    ['ticket', 'tkt\ud800'],
    ['campaign', 'a\udc00'],
    ['period', '\ud83d'],
    ['returnUrl', 'https://site.example/\ud800'],
  ])('refuses a lone UTF-16 surrogate in %s (never replaced by U+FFFD), naming the field', (field, value) => {
    expect(refusal({ [field]: value })).toMatchObject({
      constructor: SignOnValidationError,
      field,
      message: `${field}: Parameter must be well-formed Unicode text`,
    });
  });

  it.each([
    'http://shop.example',
    'ftp://shop.example',
    'shop.example',
    '/marketplace',
    'https://user:pw@shop.example',
    'http://shop.localhost',
    'ftp://localhost:8080',
    // A name that begins as a loopback address does is a name, resolved anywhere.
    'http://127.0.0.1.example:8080',
  ])('refuses the shop URL %j (tickets travel over https only)', (shop) => {
    expect(() => marketplaceUrl(shop, { groupId: 'g', marketplaceId: 'm', ticket: TICKET })).toThrow(
      SignOnConfigurationError,
    );
  });

  it.each(['http://localhost:8080', 'http://127.0.0.2:8080', 'http://127.10.200.30:8080', 'http://[::1]:8080'])(
    'allows plain http on a loopback host (a local mock), as the client does: %s',
    (shop) => {
      expect(marketplaceUrl(shop, { groupId: 'g', marketplaceId: 'm', ticket: 't' })).toBe(
        `${shop}/marketplace/g/m?at=t`,
      );
    },
  );
});
