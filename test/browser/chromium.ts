/**
 * Debian's Chromium for the browser tests, driven by playwright-core (no browser download).
 * Outside CI a missing Chromium skips the browser tests with a warning; in CI it fails them.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { expect, test } from 'vitest';

/** Debian's Chromium; `CHROMIUM_PATH` points elsewhere. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, and quiet on a machine without a network: no background connections. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Whether the browser tests can run here. */
export const hasChromium = existsSync(CHROMIUM);

/**
 * Declares, in the calling test file, what happens without Chromium: a warning outside CI, a
 * failing test in CI (CI must run the browser tests).
 */
export function requireChromium(file: string): void {
  if (hasChromium) return;
  if (process.env.CI) {
    test('Chromium is installed for the browser tests', () => {
      expect.fail(`no Chromium at ${CHROMIUM}: run \`apt-get update && apt-get install -y chromium\``);
    });
  } else {
    console.warn(
      `\n[${file}] SKIPPED: no Chromium at ${CHROMIUM}. Install it (as root) with ` +
        '`apt-get update && apt-get install -y chromium` to run the browser tests.\n',
    );
  }
}

/** Launches Chromium; playwright gives every launch a fresh temporary profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
