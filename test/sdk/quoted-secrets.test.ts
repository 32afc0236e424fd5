/**
 * Spec, Authentication 7 (tickets are credentials, never logged) and the SDK's rule that an error
 * quotes none of the secrets its request sent, rule by rule (`src/quoted-secrets.ts` and
 * `src/secrets.ts`; a mutation run found each of these unchecked elsewhere). Which secrets a
 * request sent (a query parameter, a number, an array, the claims of a JWT in base64url), where a
 * secret is found in a quoting text (a short one at the start of the text, beside `-`, after a
 * percent escape), the answer's JSON as it is kept (numbers, arrays, `null`, an empty answer), and
 * a failure's stand-in (its fields, its causes eight deep).
 */
import { describe, expect, test } from 'vitest';
import { REDACTED } from '../../src/logger.js';
import { cleanCause, type SentRequest, secretsSent, unquoting, withoutSecrets } from '../../src/quoted-secrets.js';
import { isSecretName } from '../../src/secrets.js';

const sent = (request: Partial<SentRequest>): SentRequest => ({
  token: undefined,
  headers: {},
  url: 'https://api.example.test/external/api/v1/products',
  json: undefined,
  ...request,
});
/** What an error shows of `text`, quoting what `request` sent. */
const shown = (request: Partial<SentRequest>, text: string) => unquoting(secretsSent(sent(request)))(text);

describe('the secrets a request sent are left out of an error that quotes them', () => {
  test('a ticket in the query', () => {
    const url = 'https://api.example.test/x?ticket=query-ticket-value-0001&code=PREMIUM';
    expect(shown({ url }, 'refused query-ticket-value-0001 for PREMIUM')).toBe(`refused ${REDACTED} for PREMIUM`);
  });

  test('a password sent as a number', () => {
    expect(shown({ json: { email: 'anna@example.test', password: 12345678 } }, 'password 12345678 is wrong')).toBe(
      `password ${REDACTED} is wrong`,
    );
  });

  test('tickets sent in an array', () => {
    const json = { tickets: ['array-ticket-value-0001', 'array-ticket-value-0002'] };
    expect(shown({ json }, 'array-ticket-value-0001, array-ticket-value-0002')).toBe(`${REDACTED}, ${REDACTED}`);
  });

  test('the password a JWT signs (`t`), its claims in base64url with - and _', () => {
    // {"pwd":"jwt-claim-password-0001","n":"~~~?>>>0"}: its base64url holds both - and _.
    const claims = 'eyJwd2QiOiJqd3QtY2xhaW0tcGFzc3dvcmQtMDAwMSIsIm4iOiJ-fn4_Pj4-MCJ9';
    const t = `eyJhbGciOiJIUzI1NiJ9.${claims}.c2lnbmF0dXJl`;
    expect(shown({ json: { t } }, 'wrong password jwt-claim-password-0001')).toBe(`wrong password ${REDACTED}`);
  });

  test('a secret quoted as a URL path writes it: / kept, ", DEL and letters beyond ASCII percent-encoded', () => {
    const secret = 'path/secret"\u007fé-0001';
    const inPath = 'path/secret%22%7F%C3%A9-0001';
    expect(shown({ json: { client_secret: secret } }, `no route /a/${inPath}`)).toBe(`no route /a/${REDACTED}`);
  });
});

describe('a short secret (`hunter22`) is taken out where it stands alone, and only there', () => {
  const unquote = unquoting(['hunter22']);

  test('a secret of 4 characters is looked for, one of 3 is not', () => {
    expect(unquoting(['abcd'])('refused abcd')).toBe(`refused ${REDACTED}`);
    expect(unquoting(['abc'])('refused abc')).toBe('refused abc');
  });

  test('at the very start of the text, and right after a percent escape at its start', () => {
    expect(unquote('hunter22 refused')).toBe(`${REDACTED} refused`);
    expect(unquote('%3Dhunter22 refused')).toBe(`%3D${REDACTED} refused`);
  });

  test('inside a word, or joined to one by - or after two hexadecimal digits: kept', () => {
    expect(unquote('pre-hunter22 deadhunter22 hunter22-post')).toBe('pre-hunter22 deadhunter22 hunter22-post');
  });

  test('a secret that starts or ends with punctuation: taken out beside a letter', () => {
    expect(unquoting(['$ecret12'])('x$ecret12')).toBe(`x${REDACTED}`);
    expect(unquoting(['secret1$'])('secret1$x')).toBe(`${REDACTED}x`);
  });
});

describe("an error answer's body, the request's secrets taken out", () => {
  const unquote = unquoting(['12345678', 'hunter22']);

  test('an empty answer has no body', () => {
    expect(withoutSecrets('', unquote)).toBeUndefined();
  });

  test('a number that spells a secret is left out; another stays a number', () => {
    expect(withoutSecrets('{"code":"invalid_client","seen":12345678,"status":401}', unquote)).toEqual({
      code: 'invalid_client',
      seen: REDACTED,
      status: 401,
    });
  });

  test('an array stays an array, a secret in it left out; null stays null', () => {
    const body = withoutSecrets('{"errors":["hunter22 refused","retry"],"field":null}', unquote) as {
      errors: unknown;
    };
    expect(Array.isArray(body.errors)).toBe(true);
    expect(body).toEqual({ errors: [`${REDACTED} refused`, 'retry'], field: null });
  });

  test("the body's members can be changed and deleted, as a parsed body's", () => {
    const body = withoutSecrets('{"code":"invalid_client","message":"hunter22"}', unquote) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(body, 'code')).toEqual({
      value: 'invalid_client',
      writable: true,
      enumerable: true,
      configurable: true,
    });
  });
});

describe("a fetch's failure as the APIConnectionError's cause keeps it: the request's secrets left out", () => {
  const secret = 'carried-client-secret-0123456789';
  const clean = unquoting([secret]);

  test('a name that quotes a secret (any text can be given one) is cleaned, as String(cause) shows the name', () => {
    const failure = Object.assign(new Error('fetch failed'), { name: `RefusedFor ${secret}` });
    const cause = cleanCause(failure, clean) as Error;
    expect(cause.name).toBe(`RefusedFor ${REDACTED}`);
    expect(String(cause)).not.toContain(secret);
    expect(failure.name).toBe(`RefusedFor ${secret}`);
  });

  test("the stand-in's name, message and stack are its own, hidden, and can be changed", () => {
    const cause = cleanCause(new TypeError(`fetch failed for ${secret}`), clean) as Error;
    expect(cause).toBeInstanceOf(TypeError);
    for (const key of ['name', 'message', 'stack'])
      expect(Object.getOwnPropertyDescriptor(cause, key)).toMatchObject({
        writable: true,
        enumerable: false,
        configurable: true,
      });
    expect(cause.message).toBe(`fetch failed for ${REDACTED}`);
    expect(cause.stack).not.toContain(secret);
  });

  test('a function among the fields is left out; a field that is a getter is left out, not read', () => {
    const failure = Object.assign(new Error(`refused ${secret}`), { retry: () => undefined, code: 'E' });
    Object.defineProperty(failure, 'request', { get: () => ({ body: secret }), enumerable: true });
    const cause = cleanCause(failure, clean) as Error & Record<string, unknown>;
    expect(cause).not.toBe(failure);
    expect(Object.keys(cause)).toEqual(['code']);
  });

  test('a field that is null is kept, whatever the secrets spell', () => {
    const failure = Object.assign(new Error('no route'), { address: null });
    expect(cleanCause(failure, unquoting(['null']))).toBe(failure);
  });

  test('arrays among the fields: kept as they are when they quote nothing; a function in one left out', () => {
    const quiet = Object.assign(new Error('no route'), { hosts: ['a.example.test', 'b.example.test'] });
    expect(cleanCause(quiet, clean)).toBe(quiet);
    const withFunction = Object.assign(new Error('no route'), { hooks: ['before', () => undefined] });
    expect((cleanCause(withFunction, clean) as { hooks: unknown }).hooks).toEqual(['before']);
  });

  test('causes are followed eight deep: the ninth is left out', () => {
    let failure = new Error(`level 10 ${secret}`);
    for (let level = 9; level >= 1; level--) failure = new Error(`level ${level}`, { cause: failure });
    let cause = cleanCause(failure, clean) as Error | undefined;
    const levels: string[] = [];
    while (cause !== undefined) {
      levels.push(cause.message);
      cause = cause.cause as Error | undefined;
    }
    expect(levels).toEqual(Array.from({ length: 9 }, (_, i) => `level ${i + 1}`));
  });
});

describe('what a name means: a letter beyond ASCII is a letter of the name', () => {
  test('`ticketé` does not end in `ticket`; `ｔｉｃｋｅｔé` neither', () => {
    expect(isSecretName('ticketé')).toBe(false);
    expect(isSecretName('ｔｉｃｋｅｔé')).toBe(false);
    expect(isSecretName('ｔｉｃｋｅｔ')).toBe(true);
  });
});
