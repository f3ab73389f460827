/*
 * How the landing's script finds the thank-you the server wrote for it (donation-thanks.tsx), in a
 * module of its own: the script takes no component with it.
 */
/** The template element of the thank-you. */
export const THANKS_TEMPLATE_ID = 'donation-thanks-template';
/** Where a copy's amount goes. */
export const THANKS_AMOUNT_ATTRIBUTE = 'data-thanks-amount';
