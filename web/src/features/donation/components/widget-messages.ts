import { uniqueId } from '@/lib/unique-id';
import { parseDonationAmount } from './parse-donation-amount';

export interface CompletedDonation {
  amount: number;
  /** From the widget when it names its donation, else one per message. */
  donationId: string;
}

/** The frame's height until the widget says its own: the demo widget's on a desktop. */
export const FRAME_HEIGHT = 380;
/** The most a widget may make its frame, so a runaway one cannot push the page off for ever. */
const MAX_FRAME_HEIGHT = 2000;

/** The donation widget's frame as the app's card and the landing's script both make it. */
export const FRAME_TITLE = 'Donation widget';

/** What a message of the widget's says: the frame's height, a completed donation, or nothing we take. */
type WidgetNews = { height: number } | { donation: CompletedDonation } | null;

interface WidgetMessage {
  type?: unknown;
  amount?: unknown;
  donationId?: unknown;
  height?: unknown;
}

/**
 * Spec section 5: a `donation-completed` message reports a donation, and a `widget-height` one
 * sizes the frame to the widget's content, in whole pixels and within bounds. The caller has
 * checked that the message came from the widget's frame and origin.
 */
export function readWidgetMessage(data: unknown): WidgetNews {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as WidgetMessage;
  if (message.type === 'widget-height') {
    const { height } = message;
    if (typeof height !== 'number' || !Number.isFinite(height) || height <= 0) return null;
    return { height: Math.min(Math.ceil(height), MAX_FRAME_HEIGHT) };
  }
  if (message.type !== 'donation-completed') return null;
  const amount = parseDonationAmount(message.amount);
  if (amount === null) {
    console.warn('Ignored a donation message without a positive amount:', message.amount);
    return null;
  }
  const donationId = typeof message.donationId === 'string' ? message.donationId : uniqueId();
  return { donation: { amount, donationId } };
}
