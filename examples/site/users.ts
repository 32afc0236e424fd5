/**
 * The example site's own user table: its users sign in with the site's password (not the
 * platform's), and each is mapped to an account id of the platform. Passwords are kept as scrypt
 * hashes and compared in constant time.
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** A user of the site. */
export interface SiteUser {
  /** The e-mail address the user signs in with (lower case). */
  readonly email: string;
  /** The name shown on the site. */
  readonly name: string;
  /** The user's account id on the platform. */
  readonly accountId: string;
  /** `scrypt$<salt hex>$<hash hex>` of the site password. */
  readonly passwordHash: string;
}

const KEY_LENGTH = 32;

/** Hashes a password with scrypt and a random salt. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, KEY_LENGTH).toString('hex')}`;
}

/** Whether `password` matches `stored` (made by {@link hashPassword}). */
export function verifyPassword(password: string, stored: string): boolean {
  const [scheme, saltHex, hashHex] = stored.split('$');
  if (scheme !== 'scrypt' || saltHex === undefined || hashHex === undefined) return false;
  const expected = Buffer.from(hashHex, 'hex');
  const actual = scryptSync(password, Buffer.from(saltHex, 'hex'), expected.length);
  return expected.length === KEY_LENGTH && timingSafeEqual(actual, expected);
}

/** A site user from a plain password (hashed here). */
export function siteUser(user: { email: string; name: string; accountId: string; password: string }): SiteUser {
  return {
    email: user.email.toLowerCase(),
    name: user.name,
    accountId: user.accountId.toLowerCase(),
    passwordHash: hashPassword(user.password),
  };
}

/** The site passwords of the default users (demo values; the platform's shop passwords differ). */
export const DEMO_SITE_PASSWORDS = {
  anna: 'anna-site-password',
  bo: 'bo-site-password',
  eva: 'eva-site-password',
} as const;

/** The default users: three accounts of the platform's demo seed. */
export function defaultSiteUsers(): SiteUser[] {
  return [
    siteUser({
      email: 'anna@example.com',
      name: 'Anna Andersson',
      accountId: 'ac0000000000000000000001',
      password: DEMO_SITE_PASSWORDS.anna,
    }),
    siteUser({
      email: 'bo@example.com',
      name: 'Bo Berg',
      accountId: 'ac0000000000000000000002',
      password: DEMO_SITE_PASSWORDS.bo,
    }),
    siteUser({
      email: 'eva@example.com',
      name: 'Eva Ek',
      accountId: 'ac0000000000000000000005',
      password: DEMO_SITE_PASSWORDS.eva,
    }),
  ];
}

/** Looks a user up by e-mail and password; `undefined` when either is wrong (same work either way). */
export function authenticate(users: readonly SiteUser[], email: string, password: string): SiteUser | undefined {
  const user = users.find((u) => u.email === email.trim().toLowerCase());
  // Hash even for an unknown e-mail address, so the answer takes as long either way.
  const ok = verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  return user && ok ? user : undefined;
}

const DUMMY_HASH = hashPassword(randomBytes(16).toString('hex'));
