import type { Donation } from '@qrshirt/contracts';
import { DONATION_CURRENCY, THANK_YOU_VISIBLE_MS } from '@/config/constants';
import { track } from '@/lib/analytics';
import { formatUsd } from '@/lib/format';
import { recordDonationWithRetries } from '../api/record-donation';
import { whatReachesTheCharity } from './donation-share';
import { THANKS_AMOUNT_ATTRIBUTE, THANKS_TEMPLATE_ID } from './thanks-template';
import { type CompletedDonation, FRAME_HEIGHT, FRAME_TITLE, readWidgetMessage } from './widget-messages';
import { donationWidgetUrl } from './widget-url';

interface CardProps {
  fundraiserId: string;
  charityName: string;
}

interface CardEvents {
  /** The widget reported a donation (before it is recorded); the same id comes with `onRecorded`. */
  onReported: (donationId: string) => void;
  /** After the backend recorded the report, which says whether it awaits confirmation. */
  onRecorded: (recorded: Donation, donationId: string) => void;
}

/**
 * The donation card of a server-rendered landing made live without React, for a page whose
 * visitor would otherwise wait for the whole app (issue 44): it does what DonationCard does with
 * the configured widget. The card is DonationCard as the server rendered it; this puts the widget's
 * frame in its placeholder, sizes the frame as the widget asks, and for each donation the widget
 * reports shows the thank-you for 5 seconds (the server's template of it), records the analytics
 * event and reports the donation. Answers how to stop listening to the widget.
 */
export function startDonationCard(
  card: HTMLElement,
  { fundraiserId, charityName }: CardProps,
  { onReported, onRecorded }: CardEvents,
): () => void {
  const placeholder = card.querySelector('[data-donation-frame]');
  const template = document.getElementById(THANKS_TEMPLATE_ID);
  if (!placeholder || !(template instanceof HTMLTemplateElement)) {
    throw new Error('the landing has no donation card as the server renders it');
  }
  card.querySelector('[data-testid="donation-share"]')?.prepend(`${whatReachesTheCharity(charityName)} `);

  const url = donationWidgetUrl(fundraiserId);
  const frame = document.createElement('iframe');
  frame.src = url.href;
  frame.title = FRAME_TITLE;
  frame.loading = 'lazy';
  Object.assign(frame.style, { width: '100%', height: `${FRAME_HEIGHT}px`, border: '0' });
  placeholder.replaceWith(frame);

  let shown: { thanks: Element; timer: ReturnType<typeof setTimeout> } | undefined;
  const thank = (amount: number) => {
    if (shown) {
      clearTimeout(shown.timer);
      shown.thanks.remove();
    }
    const thanks = (template.content.cloneNode(true) as DocumentFragment).firstElementChild!;
    thanks.querySelector(`[${THANKS_AMOUNT_ATTRIBUTE}]`)!.textContent = formatUsd(amount);
    frame.before(thanks);
    shown = { thanks, timer: setTimeout(() => thanks.remove(), THANK_YOU_VISIBLE_MS) };
  };

  const donate = ({ amount, donationId }: CompletedDonation) => {
    thank(amount);
    onReported(donationId);
    track({ type: 'donation', fundraiser_id: fundraiserId, amount, currency: DONATION_CURRENCY });
    recordDonationWithRetries({ fundraiserId, amount, idempotencyKey: donationId }).then(
      (recorded) => onRecorded(recorded, donationId),
      // The processor took the money; our record failing is for the logs, not the donor.
      (error: unknown) => console.warn('Recording the donation failed', error),
    );
  };

  const listen = (event: MessageEvent) => {
    if (event.origin !== url.origin || event.source !== frame.contentWindow) return;
    const news = readWidgetMessage(event.data);
    if (news && 'height' in news) frame.style.height = `${news.height}px`;
    else if (news) donate(news.donation);
  };
  window.addEventListener('message', listen);
  return () => window.removeEventListener('message', listen);
}
