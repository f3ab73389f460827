/**
 * What a visitor did to a server-rendered form before the page was live: hydration resets every
 * field to what the server rendered, and a submit then would reload the page. The page's early
 * script (app/server-pages/early-form.ts) keeps the values typed into fields named by their
 * `name`, the choices tapped (`data-early-field` and `data-early-value`) and a submit; the form,
 * once live, shows them (use-early-input.ts) and sends that submit. A module both share, so a
 * page of the app that the server did not render finds nothing here; without React, which the
 * early script must not load.
 */
export interface EarlyInput {
  values: Readonly<Record<string, string>>;
}

const early: EarlyInput & { values: Record<string, string> } = { values: {} };
let submitted = false;
let kept = true;

/** Whether the early script still keeps what is done to the form: until the form is live. */
export const earlyInputKept = () => kept;

export function keepEarlyValue(field: string, value: string): void {
  early.values[field] = value;
}

export function keepEarlySubmit(): void {
  submitted = true;
}

/** What was kept: the same object all along, for use-early-input.ts's store. */
export const earlyInput = (): EarlyInput => early;

/**
 * Called by the form once live: from then on its own handlers see everything. Whether it was
 * submitted before, once (a second call answers false).
 */
export function takeEarlySubmit(): boolean {
  kept = false;
  const was = submitted;
  submitted = false;
  return was;
}
