import { Alert, Button, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { type FundraiserStatsItem, MAX_GOAL } from '@qrshirt/contracts';
import { useState } from 'react';
import { isApiError } from '@/lib/http';
import { showSuccessToast } from '@/lib/toast';
import { useUpdateFundraiser } from '../api/update-fundraiser';

interface CharityOption {
  id: string;
  name: string;
}

/**
 * The owner edits their shirt: its name, the charity its QR page asks for (what it raised so far
 * stays with the charity it was raised for) and an optional goal; an empty goal removes it.
 */
export function EditShirtForm({
  shirt,
  charities,
  onSaved,
}: {
  shirt: Pick<FundraiserStatsItem, 'id' | 'name' | 'charityId' | 'goal'>;
  charities: readonly CharityOption[];
  onSaved?: () => void;
}) {
  const [name, setName] = useState(shirt.name);
  const [charityId, setCharityId] = useState<string | null>(shirt.charityId);
  const [goal, setGoal] = useState<number | string>(shirt.goal ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const update = useUpdateFundraiser(shirt.id);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setProblem('Please give your shirt a name');
    const amount = goal === '' ? null : Number(goal);
    if (amount !== null && (!Number.isFinite(amount) || amount < 0 || amount > MAX_GOAL)) {
      return setProblem(`The goal must be between $0 and $${MAX_GOAL.toLocaleString('en-US')}`);
    }
    setProblem(null);
    update.mutate(
      { name: name.trim(), goal: amount, ...(charityId && { charityId }) },
      {
        onSuccess: () => {
          showSuccessToast('Shirt updated', `${name.trim()} is saved.`);
          onSaved?.();
        },
        onError: (error) =>
          setProblem(isApiError(error) ? error.message : 'Could not save your shirt. Please try again.'),
      },
    );
  };

  const options = charities.map((charity) => ({ value: charity.id, label: charity.name }));
  // A charity no longer in the shop still shows as the current choice.
  if (charityId && !options.some((option) => option.value === charityId)) {
    options.unshift({ value: charityId, label: charityId });
  }

  return (
    <form onSubmit={submit} aria-label="Edit shirt" noValidate>
      <Stack gap="md">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput label="Name" value={name} onChange={(event) => setName(event.currentTarget.value)} maxLength={200} />
        <Select
          label="Charity"
          data={options}
          value={charityId}
          onChange={setCharityId}
          allowDeselect={false}
          maxDropdownHeight={300}
          description="What your shirt raised so far stays with the charity it was raised for."
        />
        <NumberInput
          label="Goal (USD)"
          description="Leave empty for no goal."
          value={goal}
          onChange={setGoal}
          min={0}
          max={MAX_GOAL}
          decimalScale={2}
          prefix="$"
          thousandSeparator=","
          allowNegative={false}
        />
        <Button type="submit" loading={update.isPending}>
          Save
        </Button>
      </Stack>
    </form>
  );
}
