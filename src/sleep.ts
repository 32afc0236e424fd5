/** The one abortable wait of the SDK: retries wait with it, and so do the helpers between calls. */

/** The longest delay a timer takes (ky's bound too). */
export const MAX_SAFE_TIMEOUT = 2_147_483_647;

/** Waits `ms` (at most the longest delay a timer takes), or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(ms, MAX_SAFE_TIMEOUT),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
