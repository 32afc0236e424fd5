/**
 * The one abortable wait of the SDK: a call's first retry waits with it (ky's later retries wait on
 * the call's own signal), and so do the helpers between calls.
 * Whatever waits on a caller's signal listens through {@link whenAborted}: one listener per signal
 * however many calls wait on it (a shutdown signal shared by every call of a server), so Node never
 * warns of a leak (`MaxListenersExceededWarning`, past 10), and none is left once they are done.
 */

/** The longest delay a timer takes (ky's bound too). */
export const MAX_SAFE_TIMEOUT = 2_147_483_647;

/** The waits on one signal, and the one listener that tells them. */
interface Waiters {
  readonly callbacks: Set<() => void>;
  readonly listener: () => void;
}

/** The signals waited on, each with its waiters; a signal leaves when its last waiter does. */
const waiting = new WeakMap<AbortSignal, Waiters>();

/**
 * Calls `callback` once when `signal` aborts (not when it already has: check `signal.aborted`
 * first); the function answered stops that. Every wait on one signal shares one `abort` listener,
 * removed when the last of them stops or the signal aborts.
 */
export function whenAborted(signal: AbortSignal, callback: () => void): () => void {
  let waiters = waiting.get(signal);
  if (!waiters) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      waiting.delete(signal);
      for (const call of callbacks) call();
    };
    waiters = { callbacks, listener };
    waiting.set(signal, waiters);
    signal.addEventListener('abort', listener, { once: true });
  }
  // Its own function, so that one callback given twice is two waits.
  const wait = () => callback();
  const { callbacks, listener } = waiters;
  callbacks.add(wait);
  return () => {
    if (!callbacks.delete(wait) || callbacks.size > 0 || waiting.get(signal) !== waiters) return;
    waiting.delete(signal);
    signal.removeEventListener('abort', listener);
  };
}

/** Waits `ms` (at most the longest delay a timer takes), or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let stop: (() => void) | undefined;
    const timer = setTimeout(
      () => {
        stop?.();
        resolve();
      },
      Math.min(ms, MAX_SAFE_TIMEOUT),
    );
    if (signal)
      stop = whenAborted(signal, () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
  });
}

/**
 * `promise`, or a rejection with the signal's reason as soon as `signal` aborts: what `promise`
 * stands for goes on (a token request other calls share), its outcome then no one's (and never an
 * unhandled rejection).
 */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    const stop = signal.aborted ? undefined : whenAborted(signal, () => reject(signal.reason));
    promise.then(
      (value) => {
        stop?.();
        resolve(value);
      },
      (error: unknown) => {
        stop?.();
        reject(error);
      },
    );
  });
}
