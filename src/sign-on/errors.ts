/**
 * Errors of the sign-on helpers. None of them ever carries a ticket, a token or a secret: not in
 * its message, not in a property, not in a `cause` (a jose claim error would hold the whole claims
 * set, and a session token's `at` claim is a fresh ticket).
 */

import { nameErrorClass, PlatformError } from '../platform-error.js';

/**
 * Base class of every error thrown by the sign-on helpers, so a caller can catch them all at once.
 * A {@link PlatformError} like every other error of the SDK.
 */
export class SignOnError extends PlatformError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'SignOnError');
  }

  /** The error's class name, kept explicit so minified builds still report it. */
  override readonly name: string = 'SignOnError';
}

/**
 * The helper was set up in a way that cannot be used safely: a client secret shorter than 32 bytes
 * (RFC 7518 section 3.2), an empty allow-list of return origins, a `readUser` option without a
 * `getSignedInUser` method, a plain-http shop URL. A programming or configuration mistake, not a
 * user's.
 */
export class SignOnConfigurationError extends SignOnError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'SignOnConfigurationError');
  }

  /** The error's class name. */
  override readonly name: string = 'SignOnConfigurationError';
  /** The option that is wrong, e.g. `clientSecret` or `allowedOrigins`. */
  readonly option: string;

  /**
   * Names the option and the rule it breaks.
   * @param option - the option that is wrong
   * @param message - what rule it breaks; never the option's value
   */
  constructor(option: string, message: string) {
    super(message);
    this.option = option;
  }
}

/** An argument of a sign-on helper breaks the spec's rules (e.g. an empty `groupId` of endpoint 25). */
export class SignOnValidationError extends SignOnError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'SignOnValidationError');
  }

  /** The error's class name. */
  override readonly name: string = 'SignOnValidationError';
  /** The offending field as the spec names it, e.g. `returnUrl` or `at`. */
  readonly field: string;

  /**
   * Names the field and the rule it breaks.
   * @param field - the offending field
   * @param message - the broken rule; never the field's value
   */
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

/** Why a session token was refused (see {@link SsoTokenError}). */
export type SsoTokenErrorReason =
  /** The HMAC does not match: wrong secret, or a tampered header, payload or signature. */
  | 'signature'
  /** `alg` is not `HS256` (`none`, `HS384`, `HS512`, `RS256`, ...): RFC 8725 section 3.1. */
  | 'algorithm'
  /** `aud` is not this API client's id. */
  | 'audience'
  /** `iss` is not the SSO audience constant (e.g. a request token replayed as a response). */
  | 'issuer'
  /** `exp` has passed, or `iat` is older than the 10-second lifetime, beyond the clock tolerance. */
  | 'expired'
  /** `nbf` or `iat` lies in the future beyond the clock tolerance. */
  | 'not_yet_valid'
  /** A claim is missing or has the wrong type or value. */
  | 'claims'
  /** `sid` is not the session the request was made for. */
  | 'session'
  /** Not a compact JWS / JWT at all. */
  | 'malformed';

/**
 * A session token of endpoint 21 failed verification. One class for every cause, told apart by
 * {@link SsoTokenError.reason}. The token is never part of the error.
 */
export class SsoTokenError extends SignOnError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'SsoTokenError');
  }

  /** The error's class name. */
  override readonly name: string = 'SsoTokenError';
  /** Why the token was refused. */
  readonly reason: SsoTokenErrorReason;
  /** The claim that failed a check, when one did (`aud`, `exp`, `sts`, ...). */
  readonly claim: string | undefined;

  /**
   * Says why a token was refused, without the token.
   * @param reason - why the token was refused
   * @param message - a description that names no token, claim value or secret
   * @param claim - the claim that failed, if one did
   */
  constructor(reason: SsoTokenErrorReason, message: string, claim?: string) {
    super(message);
    this.reason = reason;
    this.claim = claim;
  }
}

/**
 * A ticket was presented a second time (spec: Authentication point 7; RFC 6749 section 10.5). The
 * second use is refused before the ticket reaches the authorization API.
 *
 * RFC 6749 section 10.5 also asks to revoke what the first use issued: {@link TicketReplayError.ticketHash}
 * is the SHA-256 (hex) of the ticket, the same value the replay guard keys its store with, so a
 * site that recorded it with the session it opened can find and end that session.
 */
export class TicketReplayError extends SignOnError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'TicketReplayError');
  }

  /** The error's class name. */
  override readonly name: string = 'TicketReplayError';
  /** SHA-256 of the ticket, lowercase hex. Not the ticket, and not reversible to it. */
  readonly ticketHash: string;

  /**
   * A refused second use of a ticket.
   * @param ticketHash - SHA-256 of the replayed ticket, lowercase hex
   */
  constructor(ticketHash: string) {
    super('The ticket has already been used; a ticket is single-use');
    this.ticketHash = ticketHash;
  }
}
