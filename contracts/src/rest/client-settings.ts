/**
 * The meta tag by which the gateway's pages carry Stripe's publishable key when Stripe takes
 * donations: the donation card then embeds Stripe's Checkout. One build serves either setting;
 * a page without the tag keeps the configured donation widget.
 */
export const STRIPE_PUBLISHABLE_KEY_META = 'qrshirt-stripe-publishable-key';
