/** Spec section 9, the client's business constants. */
export const REDIRECT_AFTER_SIGN_IN_MS = 1500;
export const THANK_YOU_VISIBLE_MS = 5000;
export const AUTH_INIT_WAIT_MS = 1000;
export const CACHE_WARM_UP_DELAY_MS = 2000;
export const CACHE_PANEL_REFRESH_MS = 2000;
export const SHOP_CARD_MAX_SIZES = 3;
export const SHOP_CARD_MAX_TAGS = 2;
export const DONATION_CURRENCY = 'USD';
