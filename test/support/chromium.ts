/**
 * Debian's Chromium for browser tests, driven by playwright-core (never a downloaded browser).
 * A test that needs it fails, never skips, when it cannot start.
 */
import { type Browser, chromium } from 'playwright-core';

/** Where Chromium is: `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Starts headless Chromium, or throws an error that says where it looked and how to fix it. */
export const launchChromium = async (): Promise<Browser> => {
  try {
    return await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  } catch (error) {
    throw new Error(
      `Chromium could not be started from ${CHROMIUM} (set CHROMIUM_PATH, or apt-get install chromium): ${String(error)}`,
      { cause: error },
    );
  }
};
