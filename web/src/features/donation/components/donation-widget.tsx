import { lazy, Suspense, useEffect, useEffectEvent, useRef, useState } from 'react';
import { stripePublishableKey } from '@/config/page-settings';
import { uniqueId } from '@/lib/unique-id';
import { useHydrated } from '@/lib/use-hydrated';
import { parseDonationAmount } from './parse-donation-amount';
import { donationWidgetUrl } from './widget-url';

export interface CompletedDonation {
  amount: number;
  /** From the widget when it names its donation, else one per message. */
  donationId: string;
}

interface DonationWidgetProps {
  fundraiserId: string;
  onDonation: (donation: CompletedDonation) => void;
}

interface WidgetMessage {
  type?: unknown;
  amount?: unknown;
  donationId?: unknown;
  height?: unknown;
}

/** The frame's height until the widget says its own: the demo widget's on a desktop. */
const FRAME_HEIGHT = 380;
const FRAME_STYLE = { width: '100%', height: FRAME_HEIGHT, border: 0 };
/** The most a widget may make its frame, so a runaway one cannot push the page off for ever. */
const MAX_FRAME_HEIGHT = 2000;

/** The height a `widget-height` message asks for, in whole pixels, or null if it names none. */
function widgetHeight(height: unknown): number | null {
  if (typeof height !== 'number' || !Number.isFinite(height) || height <= 0) return null;
  return Math.min(Math.ceil(height), MAX_FRAME_HEIGHT);
}

// A chunk of its own, loaded only where the page carries Stripe's key.
const StripeDonation = lazy(() => import('./stripe-donation'));

/**
 * The donation processor's widget: Stripe's embedded Checkout when the page carries Stripe's
 * publishable key, else the configured widget in a frame. Either reports a completed donation
 * through `onDonation`. A server-rendered page holds its place until the browser has the script.
 */
export function DonationWidget(props: DonationWidgetProps) {
  if (!useHydrated()) return <div style={FRAME_STYLE} />;
  const publishableKey = stripePublishableKey();
  if (publishableKey === null) return <DonationFrame {...props} />;
  return (
    <Suspense fallback={<div style={FRAME_STYLE} />}>
      <StripeDonation {...props} publishableKey={publishableKey} />
    </Suspense>
  );
}

/**
 * The configured widget in a frame. It reports a completed donation with a `donation-completed`
 * message, and may size its frame to its content with `widget-height` messages; messages from any
 * other origin or frame are ignored.
 */
function DonationFrame({ fundraiserId, onDonation }: DonationWidgetProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(FRAME_HEIGHT);
  const url = donationWidgetUrl(fundraiserId);
  const report = useEffectEvent(onDonation);

  useEffect(() => {
    const listen = (event: MessageEvent<WidgetMessage>) => {
      if (event.origin !== url.origin || event.source !== frame.current?.contentWindow) return;
      if (typeof event.data !== 'object' || event.data === null) return;
      if (event.data.type === 'widget-height') {
        const asked = widgetHeight(event.data.height);
        if (asked !== null) setHeight(asked);
        return;
      }
      if (event.data.type !== 'donation-completed') return;
      const amount = parseDonationAmount(event.data.amount);
      if (amount === null) {
        console.warn('Ignored a donation message without a positive amount:', event.data.amount);
        return;
      }
      const donationId = typeof event.data.donationId === 'string' ? event.data.donationId : uniqueId();
      report({ amount, donationId });
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [url.origin]);

  return (
    <iframe ref={frame} src={url.href} title="Donation widget" loading="lazy" style={{ ...FRAME_STYLE, height }} />
  );
}
