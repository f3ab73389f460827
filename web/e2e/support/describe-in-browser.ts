import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { launchBrowser } from './browser';
import { chromiumMissing, chromiumRequired } from './chromium';

export interface BrowserSuite {
  /** The product under test, started by the global setup. */
  appUrl: string;
  /** Its data folder, where its mail is written as files. */
  appDataDir: string;
  /** A fresh browser profile: its own storage, so its own (anonymous or signed-in) session. */
  newContext: () => Promise<BrowserContext>;
}

/**
 * A describe block with one chromium for its tests. Without chromium it skips, saying why,
 * unless REQUIRE_INFRA names chromium: then it fails.
 */
export function describeInBrowser(name: string, body: (suite: BrowserSuite) => void): void {
  const appUrl = inject('appUrl');
  const appDataDir = inject('appDataDir');
  let browser: Browser | undefined;
  const suite: BrowserSuite = {
    appUrl,
    appDataDir,
    newContext: () => browser!.newContext({ baseURL: appUrl, viewport: { width: 1280, height: 900 } }),
  };

  if (chromiumMissing && !chromiumRequired) {
    console.warn(`[chromium] ${name} skipped: ${chromiumMissing}`);
    describe.skip(`${name} (skipped: ${chromiumMissing})`, () => body(suite));
    return;
  }

  describe(name, () => {
    beforeAll(async () => {
      if (chromiumMissing) throw new Error(`REQUIRE_INFRA names chromium, but ${chromiumMissing}`);
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
    });
    body(suite);
  });
}
