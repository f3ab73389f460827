import { expect, it } from 'vitest';
import { seriousViolations } from './support/browser';
import { describeInBrowser } from './support/describe-in-browser';

// Grey text just above AA contrast on white: half-way through a fade it is well below.
const PAGE = `<!doctype html><html lang="en"><title>toast</title><main>
  <p id="toast" style="color:#767676;background:#fff">Welcome to the Waitlist!</p>
</main></html>`;

describeInBrowser('the accessibility check behind every screen test', ({ newContext }) => {
  it('reads the page again when a toast starts closing while axe reads it', async () => {
    const page = await (await newContext()).newPage();
    await page.setContent(PAGE);
    await seriousViolations(page);
    // As a toast's own timer does: the fade starts once axe is running, and the toast leaves at its end.
    await page.evaluate(() => {
      const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } }).axe;
      const run = axe.run.bind(axe);
      let closed = false;
      axe.run = (...args) => {
        const toast = document.getElementById('toast')!;
        if (!closed) {
          closed = true;
          toast.addEventListener('transitionend', () => toast.remove());
          toast.style.transition = 'opacity 1s linear -0.5s';
          toast.style.opacity = '0';
        }
        return run(...args);
      };
    });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.locator('#toast').count()).toBe(0);
  });

  it('still reports what stays on the page', async () => {
    const page = await (await newContext()).newPage();
    await page.setContent(PAGE.replace('#767676', '#aaaaaa'));
    expect(await seriousViolations(page)).toEqual([expect.stringMatching(/^color-contrast .*#toast$/)]);
  });
});
