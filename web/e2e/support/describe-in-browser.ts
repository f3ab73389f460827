import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, inject } from 'vitest';
import { WAIT_MS } from '@qrshirt/test-support';
import { launchBrowser } from './browser';
import { chromiumMissing, chromiumRequired } from './chromium';

interface BrowserSuite {
  /** The product under test, started by the global setup. */
  appUrl: string;
  /** Its data folder, where its mail is written as files. */
  appDataDir: string;
  /**
   * A fresh browser profile: its own storage, so its own (anonymous or signed-in) session. Headless
   * chromium says so in its user agent, and robots' scans do not count: a scanner passes a phone's
   * (`userAgent: PHONE_USER_AGENT`).
   */
  newContext: (
    options?: Pick<BrowserContextOptions, 'userAgent' | 'javaScriptEnabled' | 'viewport'>,
  ) => Promise<BrowserContext>;
}

/** A phone's browser, as people who scan a shirt use: chromium's own user agent is a robot's. */
export const PHONE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/**
 * A describe block with one chromium for its tests. Without chromium it skips, saying why,
 * unless REQUIRE_INFRA names chromium: then it fails.
 */
export function describeInBrowser(name: string, body: (suite: BrowserSuite) => void): void {
  const appUrl = inject('appUrl');
  const appDataDir = inject('appDataDir');
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const suite: BrowserSuite = {
    appUrl,
    appDataDir,
    newContext: async (options = {}) => {
      const context = await browser!.newContext({
        baseURL: appUrl,
        viewport: { width: 1280, height: 900 },
        ...options,
      });
      // Every action and wait of its pages, unless it names its own: Playwright's 30 s, scaled.
      context.setDefaultTimeout(WAIT_MS);
      contexts.push(context);
      return context;
    },
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
    // A test's pages close with it: a dashboard left open keeps its live stream, and an account
    // may hold only so many at once (a later test's dashboard was refused one, 429).
    afterEach(async () => {
      await Promise.all(contexts.splice(0).map((context) => context.close()));
    });
    afterAll(async () => {
      await browser?.close();
    });
    body(suite);
  });
}
