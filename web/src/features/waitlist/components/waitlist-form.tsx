import { Button, Stack, Text, TextInput } from '@mantine/core';
import type { Charity, Shirt } from '@qrshirt/contracts';
import { useEffect, useEffectEvent, useState } from 'react';
import { track } from '@/lib/analytics';
import { useProofOfWork } from '@/lib/proof-of-work/use-proof-of-work';
import { takeEarlySubmit } from '@/lib/early-input';
import { useEarlyInput } from '@/lib/use-early-input';
import { showErrorToast, showSuccessToast } from '@/lib/toast';
import { useJoinWaitlist } from '../api/join-waitlist';
import { CharityPicker } from './charity-picker';
import { SizePicker } from './size-picker';
import { firstWaitlistProblem } from './waitlist-validation';

interface WaitlistFormProps {
  shirt: Pick<Shirt, 'id' | 'name' | 'sizes'>;
  charities: Charity[] | undefined;
  charitiesLoading: boolean;
}

/** Spec: Shirt detail's waitlist form (validation order, trimming, submitting, success, error). */
export function WaitlistForm({ shirt, charities, charitiesLoading }: WaitlistFormProps) {
  // On a page the server rendered, a field shows what was typed or tapped before the page was
  // live until the visitor changes it (lib/early-input.ts); undefined is "not changed since".
  const earlyInput = useEarlyInput();
  const early = earlyInput?.values ?? {};
  const [chosenSize, setSize] = useState<string | null>();
  const [charityId, setCharityId] = useState<string | null>(null);
  const [typedName, setName] = useState<string>();
  const [typedEmail, setEmail] = useState<string>();
  const earlySize = early.size !== undefined && shirt.sizes.includes(early.size) ? early.size : null;
  const size = chosenSize === undefined ? earlySize : chosenSize;
  const name = typedName ?? early.name ?? '';
  const email = typedEmail ?? early.email ?? '';
  const proofOfWork = useProofOfWork();
  const joining = useJoinWaitlist(proofOfWork.solve);

  const submit = async (event?: React.FormEvent) => {
    event?.preventDefault();
    const problem = firstWaitlistProblem({ size, charityId, name, email });
    if (problem) {
      showErrorToast(problem.title, problem.message);
      return;
    }
    const charity = charities?.find((candidate) => candidate.id === charityId);
    try {
      const { data } = await joining.mutateAsync({
        name: name.trim(),
        email: email.trim(),
        selectedSize: size!,
        selectedCharity: charityId!,
        shirtId: shirt.id,
      });
      track({
        type: 'waitlist_signup',
        charity_id: charityId!,
        charity_name: charity?.name ?? '',
        size: data.selectedSize,
        shirt_id: shirt.id,
        shirt_name: shirt.name,
      });
      showSuccessToast(
        'Welcome to the Waitlist! 🎉',
        `Thanks, ${data.name}! We'll notify you at ${data.email} when the ${shirt.name} in size ${data.selectedSize} ` +
          `supporting ${charity?.name ?? 'your chosen charity'} becomes available.`,
      );
      setSize(null);
      setCharityId(null);
      setName('');
      setEmail('');
    } catch (error) {
      console.warn('Joining the waitlist failed', error);
      showErrorToast('Error Joining Waitlist', 'Something went wrong. Please try again.');
    }
  };

  // A submit before the page was live, sent once the fields show what was typed before it.
  const submitEarly = useEffectEvent(() => void submit());
  useEffect(() => {
    if (earlyInput && takeEarlySubmit()) queueMicrotask(submitEarly);
  }, [earlyInput]);

  return (
    // Before the page is live its early script keeps a submit for it (lib/early-input.ts); with
    // no script at all, `post` keeps what was typed out of the address it would reload.
    <form onSubmit={(event) => void submit(event)} aria-label="Join the waitlist" method="post" data-early-form>
      <Stack gap="md">
        <CharityPicker charities={charities} loading={charitiesLoading} value={charityId} onChange={setCharityId} />
        <SizePicker sizes={shirt.sizes} value={size} onChange={setSize} />
        <TextInput
          label="Your Name"
          name="name"
          autoComplete="name"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <TextInput
          label="Email Address"
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
        />
        <Button type="submit" size="md" disabled={charitiesLoading || joining.isPending}>
          {joining.isPending ? 'Joining Waitlist...' : 'Join Waitlist'}
        </Button>
        {proofOfWork.widget}
        <Text size="sm" c="dimmed">
          By joining the waitlist, you'll be notified when the shirt becomes available. No payment required now.
        </Text>
      </Stack>
    </form>
  );
}
