import { afterAll, beforeAll, describe } from 'vitest';
import { infraRequired } from './require-infra';
import { type LocalStripeMock, STRIPE_MOCK_MISSING, startStripeMock, stripeMockInstalled } from './stripe-mock';

export interface TestStripeMock {
  /** stripe-mock's URL, as STRIPE_API_URL takes it; set once the block's tests run, not while they are collected. */
  readonly url: string;
}

/**
 * A describe block with Stripe's own mock API server (stripe-mock) on a free loopback port. It
 * skips loudly when stripe-mock is not installed, and fails instead when REQUIRE_INFRA names
 * stripe-mock, so CI never passes without having run it.
 */
export function describeWithStripeMock(name: string, body: (stripeMock: TestStripeMock) => void): void {
  let url = '';
  const stripeMock: TestStripeMock = {
    get url() {
      return url;
    },
  };
  const installed = stripeMockInstalled();

  if (!installed && !infraRequired('stripe-mock')) {
    console.warn(`[stripe-mock] ${name} skipped: ${STRIPE_MOCK_MISSING}`);
    describe.skip(`${name} (skipped: ${STRIPE_MOCK_MISSING})`, () => body(stripeMock));
    return;
  }

  describe(name, () => {
    let local: LocalStripeMock | undefined;

    beforeAll(async () => {
      if (!installed) throw new Error(`REQUIRE_INFRA names stripe-mock, but ${STRIPE_MOCK_MISSING}`);
      local = await startStripeMock();
      url = local.url;
    });

    afterAll(async () => {
      await local?.stop();
    });

    body(stripeMock);
  });
}
