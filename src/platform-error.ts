/** The SDK's base error, in a module of its own: the sign-on helpers use it without pulling in zod. */

/**
 * Where each error class of the SDK writes its name on its prototype (a property of no enumeration,
 * so it adds nothing to an error's own fields): the same symbol in every copy of the SDK, ES module
 * or CommonJS, through the global symbol registry.
 */
const ERROR_CLASS = Symbol.for('subscription-platform-sdk/error-class');

/**
 * Writes `name` as the class's name on its prototype, where `instanceof` of another copy of the SDK
 * reads it ({@link PlatformError}). Its own name, never `constructor.name`, which a minifier may change.
 */
export function nameErrorClass(errorClass: abstract new (...args: never[]) => Error, name: string): void {
  Object.defineProperty(errorClass.prototype, ERROR_CLASS, { value: name });
}

/**
 * The base class of every error thrown by the SDK.
 *
 * `instanceof` holds across the package's builds: an error thrown by the CommonJS build (`require`)
 * is an instance of the ES module build's class of the same name, and the other way round, as it
 * is of each class it extends (a `NotFoundError` is an `APIError` is a `PlatformError`) and of no
 * other. Each class of the SDK has its name on its prototype; `x instanceof SomeError` is true when
 * `x` is an instance of that class itself, or has a prototype on its chain named as that class is.
 * A class of yours that extends one of them is told as any class is (its prototype on the chain).
 */
export class PlatformError extends Error {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'PlatformError');
  }

  override name = 'PlatformError';

  /** Whether `value` is an instance of this class, from this copy of the SDK or another (see above). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: the class on the right of `instanceof`, a subclass as well
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    if (typeof value !== 'object' || value === null || !(ERROR_CLASS in value)) return false;
    // This class's own name: a subclass of the caller's has none, and is told as any class is.
    // biome-ignore lint/complexity/noThisInStatic: the class on the right of `instanceof`, a subclass as well
    const own = Object.getOwnPropertyDescriptor(this.prototype, ERROR_CLASS)?.value as unknown;
    if (typeof own !== 'string') return false;
    for (
      let proto: object | null = Object.getPrototypeOf(value);
      proto !== null;
      proto = Object.getPrototypeOf(proto)
    ) {
      if (Object.getOwnPropertyDescriptor(proto, ERROR_CLASS)?.value === own) return true;
    }
    return false;
  }
}
