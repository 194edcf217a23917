import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium for the browser tests. On a developer's machine without it the browser tests
 * are skipped with a warning; in CI (CI=true, where .ci/run installs it) a missing browser fails.
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

const haveChromium = existsSync(CHROMIUM);
const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';

/** `describe`, or `describe.skip` with a warning naming `what` when no browser can run here. */
export function describeInBrowser(what: string): jest.Describe {
  if (haveChromium || inCi) return describe;
  console.warn(
    `${what} skipped: no Chromium at ${CHROMIUM} (install it with: apt-get install chromium).`,
  );
  return describe.skip as jest.Describe;
}

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
