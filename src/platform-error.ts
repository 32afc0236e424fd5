/** The SDK's base error, in a module of its own: the sign-on helpers use it without pulling in zod. */

/** The base class of every error thrown by the SDK. */
export class PlatformError extends Error {
  override name = 'PlatformError';
}
