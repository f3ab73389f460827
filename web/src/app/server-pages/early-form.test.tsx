import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// What the page kept is the module's own state, which the worker's other files share (they run
// unisolated): each test takes fresh modules, as a page load would.
let earlyInput: typeof import('@/lib/early-input').earlyInput;
let takeEarlySubmit: typeof import('@/lib/early-input').takeEarlySubmit;
let stop: () => void;
beforeEach(async () => {
  vi.resetModules();
  ({ earlyInput, takeEarlySubmit } = await import('@/lib/early-input'));
  stop = (await import('./early-form')).keepEarlyForms();
  document.body.innerHTML = `
    <form data-early-form>
      <button type="button" data-early-field="size" data-early-value="M"><span>M</span></button>
      <input name="name" />
      <button type="submit">Join</button>
    </form>
    <form id="other"><input name="other" /></form>`;
});
afterEach(() => {
  stop();
  document.body.innerHTML = '';
});

const type = (selector: string, value: string) => {
  const input = document.querySelector<HTMLInputElement>(selector)!;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
};

describe('a server-rendered form before its page is live', () => {
  it('keeps what is typed and tapped in it, and holds its submit for the page to send', () => {
    document.querySelector('span')!.click();
    type('input[name="name"]', 'Early Ada');
    type('input[name="other"]', 'not kept');
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    document.querySelector('form')!.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    expect(earlyInput().values).toMatchObject({ size: 'M', name: 'Early Ada' });
    expect(earlyInput().values).not.toHaveProperty('other');
    expect(takeEarlySubmit()).toBe(true);
    expect(takeEarlySubmit()).toBe(false);
  });

  it('leaves the form to its page once the page took what was kept', () => {
    takeEarlySubmit();
    type('input[name="name"]', 'Live Ada');
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    document.querySelector('form')!.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(false);
    expect(earlyInput().values.name).not.toBe('Live Ada');
  });
});
