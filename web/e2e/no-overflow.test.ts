import type { AuthSession } from '@qrshirt/contracts';
import type { Page } from 'playwright-core';
import { as, createApiClient, createFundraiser, latestMail, scaled, signUp, tokenIn } from '@qrshirt/test-support';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminAccount } from './support/admin';
import { startApp } from './support/app-process';
import { describeInBrowser, PHONE_USER_AGENT } from './support/describe-in-browser';

/** The phones the product is laid out for: the narrowest common one to a large one. */
const WIDTHS = [320, 375, 414];

/** Words with no place to break: a name in one piece, an address, a charity's legal name. */
const LONG_WORD = 'Supercalifragilisticexpialidocious'.repeat(3);
const LONG_NAME = `${LONG_WORD} ${'and more words of a fundraiser name '.repeat(4)}`.slice(0, 200).trim();

/**
 * What reaches past the screen's right edge, for the failure's message: the page itself when it
 * lays out wider than the screen, and each element or run of text past the edge that no box
 * within the screen scrolls or clips (a wide table in its scroller, a carousel's next slide).
 */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const past = (box: DOMRect) => box.right > width + 0.5;
    const held = (node: Node): boolean => {
      for (let box = node.parentElement; box && box !== document.body; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== 'visible' && !past(box.getBoundingClientRect())) return true;
      }
      return false;
    };
    const wide: string[] = [];
    const text = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = text.nextNode(); node; node = text.nextNode()) {
      if (!node.textContent?.trim()) continue;
      range.selectNodeContents(node);
      if (past(range.getBoundingClientRect()) && !held(node))
        wide.push(`text "${node.textContent.trim().slice(0, 40)}"`);
    }
    for (const element of document.body.querySelectorAll('*')) {
      if (past(element.getBoundingClientRect()) && !held(element)) wide.push(`<${element.tagName.toLowerCase()}>`);
    }
    const laidOut = document.documentElement.scrollWidth;
    return [...(laidOut > width ? [`the page: ${laidOut} px`] : []), ...wide.slice(0, 6)];
  });
}

describeInBrowser('no page wider than a phone, whatever its content', ({ newContext }) => {
  let app: Awaited<ReturnType<typeof startApp>>;
  let owner: { email: string; password: string; session: AuthSession };
  let admin: { email: string; password: string; session: AuthSession };
  let fundraiserId = '';
  let shirtId = '';
  let charityId = '';

  beforeAll(async () => {
    // An app of its own: its long-named shirt and charity must not appear in other tests' shop.
    app = await startApp();
    const api = createApiClient(app.url);
    admin = await adminAccount(app.url, app.dataDir);
    const asAdmin = as(admin.session);
    const charity = await api('POST', '/api/admin/charities', {
      ...asAdmin,
      body: {
        name: LONG_NAME,
        mission: `${LONG_WORD} `.repeat(5),
        website_url: `https://${LONG_WORD.slice(0, 60).toLowerCase()}.example.org/${LONG_WORD}`,
      },
    });
    expect(charity.status, JSON.stringify(charity.body)).toBe(201);
    charityId = (charity.body as { id: string }).id;
    const shirt = await api('POST', '/api/admin/shirts', {
      ...asAdmin,
      body: {
        name: LONG_NAME,
        description: `${LONG_WORD} `.repeat(10),
        price: 25,
        category: LONG_WORD.slice(0, 100),
        sizes: ['M', LONG_WORD.slice(0, 32)],
        tags: [LONG_WORD.slice(0, 50)],
        images: [{ id: 'front', url: '/images/shirts/scan-me-1.svg', alt: LONG_NAME, isMain: true }],
      },
    });
    expect(shirt.status, JSON.stringify(shirt.body)).toBe(201);
    shirtId = (shirt.body as { id: string }).id;
    // An account with no display name: the dashboard greets it by its address.
    const part = LONG_WORD.slice(0, 60).toLowerCase();
    const email = `${part}@${part}.example.com`;
    const session = await signUp(api, { email, password: 'correct horse battery', displayName: '' });
    owner = { email, password: 'correct horse battery', session };
    const verify = tokenIn(await latestMail(app.dataDir, email), 'verify-email');
    await api('POST', '/api/auth/verify-email', { ...as(session), body: { token: verify } });
    fundraiserId = (await createFundraiser(api, as(session), { name: LONG_NAME, shirtId, charityId })).id;
  });
  afterAll(() => app?.stop());

  async function signedIn(page: Page, account: { email: string; password: string }): Promise<void> {
    await page.goto(`${app.url}/signin`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL('**/dashboard');
  }

  /** Opens `path` once its first heading and `ready` (if any) show, and answers what reaches past the screen. */
  async function widthOf(page: Page, path: string, ready?: string): Promise<string[]> {
    await page.goto(`${app.url}${path}`);
    try {
      await page.locator('h1').first().waitFor();
      if (ready) await page.getByText(ready).locator('visible=true').first().waitFor();
    } catch (error) {
      throw new Error(`${path} did not show ${ready ?? 'its heading'}`, { cause: error });
    }
    return overflowing(page);
  }

  it(
    'lays out every page within 320 to 414 px: long names, addresses and charities wrap',
    async () => {
      const pages: { path: string; ready?: string; as?: 'owner' | 'admin' }[] = [
        { path: '/' },
        { path: '/shop', ready: LONG_WORD },
        { path: `/shirt/${shirtId}`, ready: LONG_WORD },
        { path: `/fundraiser/${fundraiserId}`, ready: 'About This Cause' },
        { path: '/signin' },
        { path: '/privacy' },
        { path: '/no-such-page' },
        { path: '/verify-email?token=none' },
        { path: '/claim?token=none' },
        { path: '/waitlist/confirm?token=none' },
        { path: '/waitlist/remove?token=none' },
        { path: '/unsubscribe?token=none' },
        { path: `/fundraiser/${fundraiserId}`, ready: 'Impact Stats', as: 'owner' },
        { path: '/dashboard', ready: 'Welcome back', as: 'owner' },
        { path: '/admin/charities', ready: LONG_WORD, as: 'admin' },
        { path: '/admin/shirts', ready: LONG_WORD, as: 'admin' },
        { path: '/admin/fundraisers', as: 'admin' },
        { path: '/admin/waitlist', as: 'admin' },
        { path: '/admin/funnel', as: 'admin' },
        { path: `/admin/charities/${charityId}/payouts`, ready: LONG_WORD, as: 'admin' },
        { path: '/admin/projections', as: 'admin' },
        { path: '/admin/events', as: 'admin' },
        { path: '/admin/replay', as: 'admin' },
        { path: '/admin/reconcile', as: 'admin' },
        { path: '/admin/outbox', as: 'admin' },
        { path: '/admin/audit', as: 'admin' },
        { path: '/admin', as: 'admin' },
      ];
      const found: Record<string, string[]> = {};
      for (const width of WIDTHS) {
        for (const who of [undefined, 'owner', 'admin'] as const) {
          const context = await newContext({ userAgent: PHONE_USER_AGENT, viewport: { width, height: 800 } });
          const page = await context.newPage();
          if (who === 'owner') await signedIn(page, owner);
          if (who === 'admin') await signedIn(page, admin);
          for (const { path, ready } of pages.filter((listed) => listed.as === who)) {
            const wide = await widthOf(page, path, ready);
            if (wide.length > 0) found[`${path} (${who ?? 'visitor'}) at ${width} px`] = wide;
          }
          await context.close();
        }
      }
      expect(found).toEqual({});
      // 81 page loads: 45 s calm, past 120 s beside a CPU hog on a slow machine.
    },
    scaled(360_000),
  );
});
