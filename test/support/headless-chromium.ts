import type { BrowserContext } from 'playwright-core';
import { CHROMIUM, haveChromium } from '../../bench/chromium';

export { CHROMIUM, launchChromium } from '../../bench/chromium';

/**
 * Debian's Chromium for the browser tests. On a developer's machine without it the browser tests
 * are skipped with a warning; in CI (CI=true, where .ci/run installs it) a missing browser fails.
 */
const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';

/** `describe`, or `describe.skip` with a warning naming `what` when no browser can run here. */
export function describeInBrowser(what: string): jest.Describe {
  if (haveChromium || inCi) return describe;
  console.warn(
    `${what} skipped: no Chromium at ${CHROMIUM} (install it with: apt-get install chromium).`,
  );
  return describe.skip as jest.Describe;
}

/**
 * A closed network for the pages of `base`: every request elsewhere (a CDN, a font, an analytics
 * beacon) is refused and its address added to `outside`, for the test to expect it empty. The
 * page's own `blob:` downloads stay in the browser.
 */
export function closedNetwork(
  context: BrowserContext,
  base: string,
  outside: string[],
): Promise<unknown> {
  return context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${base}/`) || url.startsWith('blob:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
}
