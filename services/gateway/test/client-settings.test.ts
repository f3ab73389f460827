import { describe, expect, it } from 'vitest';
import { withClientSettings } from '../src/http/client-settings';

const page = '<!doctype html><html lang="en"><head><title>app</title></head></html>';
const ANONYMOUS_OFF = '<meta name="qrshirt-anonymous-auth" content="false">';
const DEMO = '<meta name="qrshirt-demo-mode" content="true">';
const STRIPE = '<meta name="qrshirt-stripe-publishable-key" content="pk_test_123">';
const fee = (percent: number) => `<meta name="qrshirt-stripe-platform-fee-percent" content="${percent}">`;

describe('the settings a page tells its client', () => {
  it('tells demo mode, and anonymous sign-in turned off, in meta tags at the top of its head', () => {
    expect(withClientSettings(page, { anonymousAuth: true, demoMode: true, stripePublishableKey: null })).toBe(
      page.replace('<head>', `<head>${DEMO}`),
    );
    expect(withClientSettings(page, { anonymousAuth: false, demoMode: true, stripePublishableKey: null })).toBe(
      page.replace('<head>', `<head>${ANONYMOUS_OFF}${DEMO}`),
    );
    expect(withClientSettings(page, { anonymousAuth: false, demoMode: false, stripePublishableKey: null })).toBe(
      page.replace('<head>', `<head>${ANONYMOUS_OFF}`),
    );
  });

  it("tells Stripe's publishable key after the others, and the platform's fee with it", () => {
    expect(
      withClientSettings(page, { anonymousAuth: false, demoMode: true, stripePublishableKey: 'pk_test_123' }),
    ).toBe(page.replace('<head>', `<head>${ANONYMOUS_OFF}${DEMO}${STRIPE}${fee(0)}`));
    const settings = { anonymousAuth: true, demoMode: false, stripePublishableKey: 'pk_test_123' };
    expect(withClientSettings(page, { ...settings, stripePlatformFeePercent: 2.5 })).toBe(
      page.replace('<head>', `<head>${STRIPE}${fee(2.5)}`),
    );
  });

  it('serves the page as built with live money and anonymous sign-in on', () => {
    expect(withClientSettings(page, { anonymousAuth: true, demoMode: false, stripePublishableKey: null })).toBe(page);
  });
});
