import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useInputState } from '@mantine/hooks';
import type { Charity, Shirt } from '@qrshirt/contracts';
import { useState } from 'react';
import { track } from '@/lib/analytics';
import { useProofOfWork } from '@/lib/proof-of-work/use-proof-of-work';
import { useHydrated } from '@/lib/use-hydrated';
import { showErrorToast, showSuccessToast } from '@/lib/toast';
import { useJoinWaitlist } from '../api/join-waitlist';
import { CharityPicker } from './charity-picker';
import { SizePicker } from './size-picker';
import { firstWaitlistProblem } from './waitlist-validation';
import classes from './waitlist-form.module.css';

interface WaitlistFormProps {
  shirt: Pick<Shirt, 'id' | 'name' | 'sizes'>;
  charities: Charity[] | undefined;
  charitiesLoading: boolean;
}

/** Spec: Shirt detail's waitlist form (validation order, trimming, submitting, success, error). */
export function WaitlistForm({ shirt, charities, charitiesLoading }: WaitlistFormProps) {
  const [size, setSize] = useState<string | null>(null);
  const [charityId, setCharityId] = useState<string | null>(null);
  const [name, setName] = useInputState('');
  const [email, setEmail] = useInputState('');
  const proofOfWork = useProofOfWork();
  const joining = useJoinWaitlist(proofOfWork.solve);
  // A page the server rendered takes its first taps and keys only once it is live: before then
  // they would go nowhere, or be wiped by hydration.
  const live = useHydrated();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
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

  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Join the waitlist">
      <fieldset disabled={!live} className={classes.fields}>
        <Stack gap="md">
          <CharityPicker charities={charities} loading={charitiesLoading} value={charityId} onChange={setCharityId} />
          <SizePicker sizes={shirt.sizes} value={size} onChange={setSize} />
          <TextInput label="Your Name" autoComplete="name" value={name} onChange={setName} />
          <TextInput label="Email Address" type="email" autoComplete="email" value={email} onChange={setEmail} />
          <Button type="submit" size="md" disabled={charitiesLoading || joining.isPending}>
            {joining.isPending ? 'Joining Waitlist...' : 'Join Waitlist'}
          </Button>
          {proofOfWork.widget}
          <Text size="sm" c="dimmed">
            By joining the waitlist, you'll be notified when the shirt becomes available. No payment required now.
          </Text>
        </Stack>
      </fieldset>
    </form>
  );
}
