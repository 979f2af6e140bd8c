/** Headless Debian Chromium for browser tests, driven by playwright-core (no browser download). */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium package; .ci/run installs it. */
export const CHROMIUM_PATH = process.env.QUARRY_CHROMIUM ?? '/usr/bin/chromium';

/** True when the browser binary is here; browser suites skip (with a reason) when it is not. */
export const HAVE_CHROMIUM = existsSync(CHROMIUM_PATH);

/**
 * Launches headless Chromium (playwright gives it a fresh temporary profile). The flags keep it off the
 * network: this machine has none but loopback, and without them Chromium retries background connections.
 */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
    ],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}
