import { lazy, Suspense, useEffect, useEffectEvent, useRef, useState } from 'react';
import { stripePublishableKey } from '@/config/page-settings';
import { useHydrated } from '@/lib/use-hydrated';
import { type CompletedDonation, FRAME_HEIGHT, FRAME_TITLE, readWidgetMessage } from './widget-messages';
import { donationWidgetUrl } from './widget-url';

interface DonationWidgetProps {
  fundraiserId: string;
  onDonation: (donation: CompletedDonation) => void;
}

const FRAME_STYLE = { width: '100%', height: FRAME_HEIGHT, border: 0 };

// A chunk of its own, loaded only where the page carries Stripe's key.
const StripeDonation = lazy(() => import('./stripe-donation'));

/**
 * The donation processor's widget: Stripe's embedded Checkout when the page carries Stripe's
 * publishable key, else the configured widget in a frame. Either reports a completed donation
 * through `onDonation`. A server-rendered page holds its place until the browser has the script.
 */
export function DonationWidget(props: DonationWidgetProps) {
  // The landing's script (donation-card-script.ts) puts the frame in its place.
  if (!useHydrated()) return <div data-donation-frame style={FRAME_STYLE} />;
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
    const listen = (event: MessageEvent) => {
      if (event.origin !== url.origin || event.source !== frame.current?.contentWindow) return;
      const news = readWidgetMessage(event.data);
      if (news && 'height' in news) setHeight(news.height);
      else if (news) report(news.donation);
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [url.origin]);

  return <iframe ref={frame} src={url.href} title={FRAME_TITLE} loading="lazy" style={{ ...FRAME_STYLE, height }} />;
}
