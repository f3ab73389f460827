import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { checkScreen, watchedPage } from './support/browser';
import { describeInBrowser } from './support/describe-in-browser';

/** Cards whose top edge lines up with the first card's: the columns of the grid. */
async function cardsInFirstRow(page: Page): Promise<number> {
  const tops = await page
    .getByTestId('shirt-card')
    .evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().top)));
  return tops.filter((top) => top === tops[0]).length;
}

async function toastTitled(page: Page, title: string): Promise<void> {
  await page.locator('.mantine-Notification-title', { hasText: title }).last().waitFor({ state: 'visible' });
}

describeInBrowser('browsing the shop and joining a waitlist', ({ newContext, appUrl }) => {
  it('shows the homepage, with only its own code loaded, and leads to the shop', async () => {
    const { page, errors } = await watchedPage(await newContext());
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await page.getByRole('heading', { name: 'How It Works' }).waitFor();
    for (const text of ['They Get Curious', 'Plot Twist', 'They Donate', 'Our Impact So Far']) {
      expect(await page.getByText(text, { exact: false }).count()).toBeGreaterThan(0);
    }
    // Routes are split: the dashboard's chart code is not part of the homepage.
    expect(scripts.filter((script) => /dashboard|qr-landing|sign-in/.test(script))).toEqual([]);
    expect(await checkScreen(page, 'home')).toEqual([]);
    // The server-rendered homepage warms the cache as the app does, about 2 s after its load.
    await page.waitForFunction(() =>
      ['shirts_all', 'charities_all'].every((key) => localStorage.getItem(`qrshirt_cache_${key}`)),
    );

    await page.locator('main').getByRole('link', { name: 'Get Your Shirt' }).first().click();
    await page.waitForURL('**/shop');
    await page.getByRole('heading', { name: 'Our Shirts Collection' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('shows the homepage before any script runs: the page comes rendered, and reads with JavaScript off', async () => {
    const { page, errors } = await watchedPage(await newContext({ javaScriptEnabled: false }));
    const answer = await page.goto('/');
    expect(answer?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Wear a QR code. Start a conversation. Fund a cause.' }).waitFor();
    expect(await page.title()).toBe('QR Shirts for Charity');
    for (const heading of ['How It Works', 'Our Impact So Far']) {
      expect(await page.getByRole('heading', { name: heading }).count(), heading).toBe(1);
    }
    expect(await page.getByText('$12,450', { exact: true }).count()).toBe(1);
    // A plain link: without the app, it still leads to the shop.
    expect(await page.locator('main').getByRole('link', { name: 'Get Your Shirt' }).first().getAttribute('href')).toBe(
      '/shop',
    );
    expect(errors).toEqual([]);
  });

  it("shows the shop's shirts before any script runs, each a link to its page", async () => {
    const shirts = (await (await fetch(`${appUrl}/api/shirts`)).json()) as { id: string; name: string }[];
    const { page, errors } = await watchedPage(await newContext({ javaScriptEnabled: false }));
    const answer = await page.goto('/shop');
    expect(answer?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Our Shirts Collection' }).waitFor();
    expect(await page.title()).toBe('Shop · QR Shirts for Charity');
    expect(await page.getByTestId('shirt-card').count()).toBe(shirts.length);
    const first = page.getByTestId('shirt-card').first();
    expect(await first.getByText(shirts[0]!.name, { exact: true }).count()).toBe(1);
    expect(await first.getByRole('link').first().getAttribute('href')).toBe(`/shirt/${shirts[0]!.id}`);
    expect(errors).toEqual([]);
  });

  it("shows a shirt's page before any script runs, its form sending nothing into an address", async () => {
    const [shirt] = (await (await fetch(`${appUrl}/api/shirts`)).json()) as {
      id: string;
      name: string;
      price: number;
    }[];
    const { page, errors } = await watchedPage(await newContext({ javaScriptEnabled: false }));
    const answer = await page.goto(`/shirt/${shirt!.id}`);
    expect(answer?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Join the Waitlist' }).waitFor();
    expect(await page.title()).toBe(`${shirt!.name} · QR Shirts for Charity`);
    expect(await page.getByRole('heading', { name: shirt!.name }).count()).toBe(1);
    expect(await page.getByText(`$${shirt!.price.toFixed(2)}`).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'What Happens Next?' }).count()).toBe(1);
    // The form takes input before the page is live (its early script keeps it for the page to
    // send once live, taps-before-live.test.ts); with no script at all a submit posts, so nothing
    // typed lands in an address. The carousel says it waits for the page to be live.
    expect(await page.getByLabel('Your Name').isEditable()).toBe(true);
    expect(await page.getByRole('form', { name: 'Join the waitlist' }).getAttribute('method')).toBe('post');
    expect(await page.getByRole('button', { name: 'Next image' }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('lays the shirts out in 1, 2, 3 and 4 columns as the screen widens, images with alt text, lazy after the first', async () => {
    const { page, errors } = await watchedPage(await newContext());
    await page.goto('/shop');
    await page.getByTestId('shirt-card').first().waitFor();
    for (const [width, columns] of [
      [375, 1],
      [800, 2],
      [1000, 3],
      [1280, 4],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      // The grid takes the new width once the page has laid itself out again.
      await expect.poll(() => cardsInFirstRow(page), { message: `columns at ${width} px` }).toBe(columns);
    }
    const images = await page
      .locator('main img')
      .evaluateAll((nodes) =>
        nodes.map((node) => ({ alt: node.getAttribute('alt'), loading: node.getAttribute('loading') })),
      );
    expect(images.length).toBeGreaterThan(0);
    expect(images.filter((image) => !image.alt)).toEqual([]);
    // The first card's picture is the largest paint and loads at once; the others when scrolled to.
    expect(images.map((image) => image.loading)).toEqual(['eager', ...images.slice(1).map(() => 'lazy')]);
    expect(await checkScreen(page, 'shop')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('leaves a visitor where they scrolled before the shop became live, so a tap lands on what they saw', async () => {
    const context = await newContext();
    const { page, errors } = await watchedPage(context);
    // A slow phone's CPU: the shop is on screen, and scrolled, long before it is live.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
    // The layout counts the page view in the effect that would scroll: once it is sent, that ran.
    const pageView = page.waitForRequest(
      (request) => request.url().endsWith('/api/analytics') && (request.postData() ?? '').includes('page_view'),
    );
    await page.goto('/shop');
    const lastLink = page.getByTestId('shirt-card').last().getByRole('link', { name: 'Join Waitlist' });
    await lastLink.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await pageView;
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    await lastLink.click();
    await page.waitForURL('**/shirt/**');
    expect(errors).toEqual([]);
  });

  it('opens a shirt at the top of its page, asks for each missing field in order, then joins', async () => {
    const { page, errors } = await watchedPage(await newContext());
    const waitlistPosts: unknown[] = [];
    const proofs: (string | undefined)[] = [];
    let challenges = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/waitlist')) {
        waitlistPosts.push(request.postDataJSON());
        proofs.push(request.headers()['x-altcha']);
      }
      if (request.url().endsWith('/api/challenge')) challenges++;
    });
    await page.goto('/shop');
    const lastCard = page.getByTestId('shirt-card').last();
    const shirtName = (await lastCard.getByRole('heading').textContent())!;
    await lastCard.getByRole('link', { name: 'Join Waitlist' }).click();
    await page.waitForURL('**/shirt/**');
    await page.getByRole('heading', { name: 'Join the Waitlist' }).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.getByRole('heading', { name: shirtName }).count()).toBe(1);

    const counter = page.getByTestId('carousel-counter');
    const total = (await counter.textContent())!.split(' / ')[1];
    await page.getByRole('button', { name: 'Next image' }).click();
    await page.waitForFunction(
      (expected) => document.querySelector('[data-testid="carousel-counter"]')?.textContent === expected,
      `2 / ${total}`,
    );

    const submit = page.getByRole('button', { name: 'Join Waitlist' });
    await submit.click();
    await toastTitled(page, 'Size Required');
    await page.getByRole('button', { name: 'M', exact: true }).click();
    await submit.click();
    await toastTitled(page, 'Charity Required');
    await page.getByRole('combobox', { name: 'Choose a charity to support' }).click();
    const charity = page.getByRole('option').first();
    const charityName = (await charity.textContent())!;
    await charity.click();
    await page.getByTestId('chosen-charity').waitFor();
    await page.getByLabel('Your Name').fill('   ');
    await submit.click();
    await toastTitled(page, 'Name Required');
    await page.getByLabel('Your Name').fill('  Ada Lovelace ');
    await submit.click();
    await toastTitled(page, 'Email Required');
    expect(waitlistPosts).toEqual([]);
    // The proof of work comes after the form's own checks: nothing was solved for them.
    expect(challenges).toBe(0);

    await page.getByLabel('Email Address').fill('ada@example.com');
    await submit.click();
    await toastTitled(page, 'Welcome to the Waitlist! 🎉');
    await page
      .getByText(
        `Thanks, Ada Lovelace! We'll notify you at ada@example.com when the ${shirtName} in size M supporting ${charityName} becomes available.`,
      )
      .waitFor();
    expect(waitlistPosts).toHaveLength(1);
    expect(waitlistPosts[0]).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', selectedSize: 'M' });
    // Solved in the page by the ALTCHA widget's worker, from one challenge.
    expect(challenges).toBe(1);
    const payload = JSON.parse(Buffer.from(proofs[0]!, 'base64').toString()) as {
      challenge: { parameters: { algorithm: string } };
      solution: { derivedKey: string };
    };
    expect(payload.challenge.parameters.algorithm).toBe('SHA-256');
    expect(payload.solution.derivedKey).toMatch(/^[0-9a-f]+$/);
    expect(await page.getByLabel('Your Name').inputValue()).toBe('');

    expect(await checkScreen(page, 'shirt')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("joins from the app's own shirt page too, reached inside the app, with the widget solving there", async () => {
    const { page, errors } = await watchedPage(await newContext());
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/signin');
    await page.getByRole('link', { name: 'Shop', exact: true }).first().click();
    // The last card, scrolled to: the shirt's page, reached inside the app, still starts at the top.
    await page.getByTestId('shirt-card').last().click();
    await page.getByRole('heading', { name: 'Join the Waitlist' }).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.getByRole('button', { name: 'M', exact: true }).click();
    await page.getByRole('combobox', { name: 'Choose a charity to support' }).click();
    await page.getByRole('option').first().click();
    await page.getByLabel('Your Name').fill('Grace Hopper');
    await page.getByLabel('Email Address').fill(`grace-${Date.now()}@example.com`);
    const posted = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/api/waitlist'),
    );
    await page.getByRole('button', { name: 'Join Waitlist' }).click();
    await toastTitled(page, 'Welcome to the Waitlist! 🎉');
    expect((await posted).headers()['x-altcha']).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(errors).toEqual([]);
  });
});
