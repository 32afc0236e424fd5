/** Waiting in a test that runs on fake timers. */
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits until `check` stops throwing (or rejecting) and answers what it returned; rethrows its last
 * error after `timeoutMs` of real time. It polls on Node's own timers, which fake timers leave
 * alone: unlike `vi.waitFor` and `expect.poll`, which move fake timers on by their interval at
 * every check, it never moves the time a test holds still.
 */
export async function until<T>(check: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (performance.now() > deadline) throw error;
    }
    await sleep(2);
  }
}
