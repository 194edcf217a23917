import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, as the browser tests and the web app's benchmark start it (.ci/run installs it
 * with `apt-get install chromium`).
 */
export const CHROMIUM = '/usr/bin/chromium';
// Without these Chromium keeps reaching for Google's services, which floods a closed network.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const haveChromium = existsSync(CHROMIUM);

/** `extraArgs`: more command-line switches, such as `--host-resolver-rules`. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!haveChromium) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}; .ci/run installs it (apt-get install chromium).`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    timeout: 120_000,
  });
}
