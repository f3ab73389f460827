import { earlyInputKept, keepEarlySubmit, keepEarlyValue } from '@/lib/early-input';

/** The forms whose early input is kept: they take it when live (lib/early-input.ts). */
const EARLY_FORM = 'form[data-early-form]';

/**
 * Keeps what a visitor types, taps and submits in a server-rendered form before the page is live
 * (lib/early-input.ts), and stops such a submit from reloading the page: the form sends it once
 * live. Answers how to stop listening.
 */
export function keepEarlyForms(): () => void {
  const listening = new AbortController();
  const { signal } = listening;
  const formOf = (target: EventTarget | null) =>
    earlyInputKept() && target instanceof Element ? target.closest(EARLY_FORM) : null;
  document.addEventListener(
    'input',
    (event) => {
      const field = event.target;
      if (formOf(field) && field instanceof HTMLInputElement && field.name) keepEarlyValue(field.name, field.value);
    },
    { capture: true, signal },
  );
  document.addEventListener(
    'click',
    (event) => {
      const choice = formOf(event.target) && (event.target as Element).closest<HTMLElement>('[data-early-field]');
      const { earlyField, earlyValue } = choice ? choice.dataset : {};
      if (earlyField && earlyValue !== undefined) keepEarlyValue(earlyField, earlyValue);
    },
    { capture: true, signal },
  );
  document.addEventListener(
    'submit',
    (event) => {
      if (!formOf(event.target)) return;
      event.preventDefault();
      keepEarlySubmit();
    },
    { capture: true, signal },
  );
  return () => listening.abort();
}
