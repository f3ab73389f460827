import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Frame, type Page } from 'playwright-core';
import { START_MS } from '@qrshirt/test-support';
import { CHROMIUM } from './chromium';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/**
 * Where checkScreen saves its screenshots: a git-ignored folder, so a test run changes no tracked
 * file; `npm run screenshots` points it at docs/screenshots to refresh the documented ones.
 */
const screenshotDir = path.resolve(repoRoot, process.env.SCREENSHOTS_DIR ?? '.screenshots');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The two widths of issue 5: a small phone and a laptop. */
const WIDTHS = [375, 1280] as const;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    // Ready once its DevTools endpoint answers; Playwright's own deadline for it is 30 s.
    timeout: START_MS,
  });
}

interface WatchedPage {
  page: Page;
  /** Console errors and uncaught exceptions, with the address they happened on. */
  errors: string[];
  warnings: string[];
}

/** A page whose console errors are collected, so every test can require there were none. */
export async function watchedPage(context: BrowserContext): Promise<WatchedPage> {
  const page = await context.newPage();
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on('console', (message) => {
    const resource = message.location().url;
    if (message.type() === 'error') {
      errors.push(`${page.url()}: ${message.text()}${resource ? ` (${resource})` : ''}`);
    }
    if (message.type() === 'warning') warnings.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught ${error.message}`));
  return { page, errors, warnings };
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core's serious and critical findings on a page or frame, one readable line each. */
export async function seriousViolations(target: Page | Frame): Promise<string[]> {
  // Evaluated through the DevTools protocol rather than added as a <script>: the pages' CSP
  // rightly refuses inline scripts, and the tests keep it on to see any violation.
  if (!(await target.evaluate(() => 'axe' in window))) await target.evaluate(axeSource);
  // A toast or modal half-way through a fade has the contrast of its opacity at that moment, so
  // axe runs once finite transitions end (a spinner's endless one never does), and runs again if
  // one started meanwhile: a toast's own timer can close it while axe is reading the page.
  const violations = await target.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const fading = () =>
      document
        .getAnimations()
        .some(
          (animation) =>
            animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity,
        );
    let started: boolean;
    const onStart = () => (started = true);
    for (let attempt = 1; ; attempt++) {
      while (fading()) await new Promise((resolve) => requestAnimationFrame(resolve));
      started = false;
      for (const type of ['transitionrun', 'animationstart']) document.addEventListener(type, onStart, true);
      const { violations } = await axe.run(document, { resultTypes: ['violations'] });
      for (const type of ['transitionrun', 'animationstart']) document.removeEventListener(type, onStart, true);
      if ((!started && !fading()) || attempt === 5) return violations;
    }
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.help}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/**
 * Once the page has taken a new width: the window has it, and two frames have been drawn since, so
 * the resize events went out and what they changed has rendered (or started the transitions that
 * seriousViolations waits out).
 */
async function laidOutAt(page: Page, width: number): Promise<void> {
  await page.waitForFunction((expected) => window.innerWidth === expected, width);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Scrolls through the page so lazy images load before a full-page screenshot. */
async function loadLazyImages(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    window.scrollTo(0, 0);
    const pending = [...document.images].filter((image) => !image.complete);
    await Promise.all(
      pending.map(
        (image) =>
          new Promise((resolve) => {
            image.addEventListener('load', resolve, { once: true });
            image.addEventListener('error', resolve, { once: true });
            setTimeout(resolve, 2000);
          }),
      ),
    );
  });
}

/**
 * At each width: axe's serious and critical findings, and a full-page screenshot saved as
 * <name>-<width>.png in the screenshot folder (above). Leaves the page at the last width.
 */
export async function checkScreen(page: Page, name: string): Promise<string[]> {
  mkdirSync(screenshotDir, { recursive: true });
  const findings: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await laidOutAt(page, width);
    findings.push(...(await seriousViolations(page)).map((line) => `${width}px ${line}`));
    await loadLazyImages(page);
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${width}.png`), fullPage: true });
  }
  return findings;
}
