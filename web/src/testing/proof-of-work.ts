/**
 * What the ALTCHA widget "solves" in component tests: jsdom has no Web Workers and is not a secure
 * context, so the widget cannot run there (setup.ts puts this in its place). The browser journeys
 * (web/e2e) run the real widget against the real gateway.
 */
export const TEST_PROOF_OF_WORK = 'proof-of-work-of-the-component-tests';
