import { Alert, Button, Group, Loader, NumberInput, SegmentedControl, Stack, Text } from '@mantine/core';
import { loadStripe } from '@stripe/stripe-js';
import { type FormEvent, useEffect, useEffectEvent, useRef, useState } from 'react';
import { uniqueId } from '@/lib/unique-id';
import { formatUsd } from '@/lib/format';
import { isApiError } from '@/lib/http';
import { useProofOfWork } from '@/lib/proof-of-work/use-proof-of-work';
import { createCheckout } from '../api/create-checkout';
import { checkCustomAmount, PRESET_AMOUNTS } from './donation-amount';
import type { CompletedDonation } from './widget-messages';

interface StripeDonationProps {
  fundraiserId: string;
  publishableKey: string;
  onDonation: (donation: CompletedDonation) => void;
}

/** One payment under way: its amount and the key its session and its report share. */
interface Payment {
  amount: number;
  idempotencyKey: string;
}

const OTHER = 'other';
const CHOICES = [
  ...PRESET_AMOUNTS.map((amount) => ({ value: String(amount), label: formatUsd(amount).replace('.00', '') })),
  { value: OTHER, label: 'Other' },
];

/**
 * The donation card's widget with Stripe configured: the donor picks an amount, then pays in
 * Stripe's embedded Checkout, mounted in the card. Its session is asked for with a proof of work,
 * as the other anonymous forms' writes are. Its completion is reported as the demo widget's
 * `donation-completed` message is, under the Idempotency-Key the Checkout Session was created
 * with, so that the report is the one Stripe's webhook settles. Loaded only where a page carries
 * Stripe's key: Stripe.js itself comes from js.stripe.com, as Stripe requires, when this loads.
 * With live keys, the API refuses the Checkout (409) while the charity has no Stripe account that
 * takes charges: the card then says so in the API's words, in place of the Checkout.
 */
export default function StripeDonation({ fundraiserId, publishableKey, onDonation }: StripeDonationProps) {
  const [choice, setChoice] = useState('10');
  const [typed, setTyped] = useState<number | string>('');
  const [typedError, setTypedError] = useState<string | null>(null);
  const [payment, setPayment] = useState<Payment | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [closed, setClosed] = useState<string | null>(null);
  const proofOfWork = useProofOfWork();

  const start = (event: FormEvent) => {
    event.preventDefault();
    let amount: number;
    if (choice === OTHER) {
      const checked = checkCustomAmount(typed);
      if ('error' in checked) {
        setTypedError(checked.error);
        return;
      }
      amount = checked.amount;
    } else amount = Number(choice);
    setFailure(null);
    setPayment({ amount, idempotencyKey: uniqueId() });
  };

  if (closed) {
    return (
      <Alert color="gray" data-testid="card-donations-closed">
        {closed}
      </Alert>
    );
  }

  // The proof of work's widget stays put while the card turns from the amounts to the Checkout,
  // which solves its challenge once it is on the page.
  if (payment) {
    return (
      <>
        <Stack gap="sm">
          <Group justify="space-between">
            <Text fw={600}>Your donation: {formatUsd(payment.amount)}</Text>
            <Button variant="subtle" size="compact-sm" onClick={() => setPayment(null)}>
              Change amount
            </Button>
          </Group>
          <EmbeddedCheckout
            key={payment.idempotencyKey}
            fundraiserId={fundraiserId}
            publishableKey={publishableKey}
            payment={payment}
            solveProofOfWork={proofOfWork.solve}
            onComplete={() => {
              setPayment(null);
              onDonation({ amount: payment.amount, donationId: payment.idempotencyKey });
            }}
            onFailure={(error) => {
              setPayment(null);
              // The charity takes no card donation yet: another amount or another try would be refused alike.
              if (isApiError(error, 409)) setClosed(error.message);
              else setFailure(error instanceof Error && error.message ? error.message : 'Stripe did not answer.');
            }}
          />
        </Stack>
        {proofOfWork.widget}
      </>
    );
  }

  return (
    <>
      <form onSubmit={start} noValidate>
        <Stack gap="md">
          {failure && (
            <Alert color="red" title="The payment could not start" data-testid="checkout-failed">
              {failure}
            </Alert>
          )}
          <Stack gap={6}>
            <Text id="donation-amount-label" fw={500}>
              Choose an amount (USD)
            </Text>
            <SegmentedControl
              aria-labelledby="donation-amount-label"
              data={CHOICES}
              value={choice}
              onChange={(value) => {
                setChoice(value);
                setTypedError(null);
              }}
              fullWidth
            />
          </Stack>
          {choice === OTHER && (
            <NumberInput
              label="Your amount (USD)"
              prefix="$"
              decimalScale={2}
              allowNegative={false}
              thousandSeparator=","
              inputMode="decimal"
              value={typed}
              onChange={(value) => {
                setTyped(value);
                setTypedError(null);
              }}
              error={typedError}
              data-autofocus
            />
          )}
          <Button type="submit">Continue to payment</Button>
        </Stack>
      </form>
      {proofOfWork.widget}
    </>
  );
}

interface EmbeddedCheckoutProps {
  fundraiserId: string;
  publishableKey: string;
  payment: Payment;
  /** The ALTCHA payload for the checkout's request, solved in the card's widget. */
  solveProofOfWork: () => Promise<string>;
  onComplete: () => void;
  onFailure: (error: unknown) => void;
}

/**
 * Stripe's embedded Checkout for one payment, in this element. Stripe.js lets a page hold one
 * embedded Checkout at a time: one made after this left the page (React's second run of effects
 * in development, a quick change of amount) is destroyed at once.
 */
function EmbeddedCheckout({
  fundraiserId,
  publishableKey,
  payment,
  solveProofOfWork,
  onComplete,
  onFailure,
}: EmbeddedCheckoutProps) {
  const container = useRef<HTMLDivElement>(null);
  const [mounted, setMounted] = useState(false);
  const solve = useEffectEvent(solveProofOfWork);
  const complete = useEffectEvent(onComplete);
  const fail = useEffectEvent(onFailure);

  useEffect(() => {
    let left = false;
    let checkout: { destroy(): void } | undefined;
    const open = async () => {
      // The session is asked for while Stripe.js loads; a refusal ends here, before Stripe sees it.
      const clientSecret = solve().then((proofOfWork) => createCheckout({ fundraiserId, ...payment, proofOfWork }));
      const [stripe] = await Promise.all([loadStripe(publishableKey), clientSecret]);
      if (left) return;
      if (!stripe) throw new Error('Stripe.js did not load.');
      const page = await stripe.createEmbeddedCheckoutPage({
        fetchClientSecret: () => clientSecret,
        onComplete: () => complete(),
      });
      if (left) {
        page.destroy();
        return;
      }
      checkout = page;
      page.mount(container.current!);
      setMounted(true);
    };
    open().catch((error: unknown) => {
      console.warn('Stripe Checkout could not start', error);
      if (!left) fail(error);
    });
    return () => {
      left = true;
      checkout?.destroy();
    };
  }, [fundraiserId, publishableKey, payment]);

  return (
    <>
      {!mounted && <Loader size="sm" aria-label="Loading the payment form" />}
      <div ref={container} data-testid="stripe-checkout" />
    </>
  );
}
