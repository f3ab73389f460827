import { Button, Group, SegmentedControl, Switch, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { EventFilters } from '../api/get-events';

interface EventFiltersFormProps {
  filters: EventFilters;
  onApply: (filters: EventFilters) => void;
}

/**
 * The texts apply on submit (typing does not fetch a page per key); order and the personal-data
 * toggle apply at once.
 */
export function EventFiltersForm({ filters, onApply }: EventFiltersFormProps) {
  const [draft, setDraft] = useState(filters);
  const text = (name: 'streamPrefix' | 'type' | 'from' | 'to') => ({
    value: draft[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const { value } = event.currentTarget;
      setDraft((current) => ({ ...current, [name]: value }));
    },
  });
  const applyNow = (change: Partial<EventFilters>) => {
    const next = { ...draft, ...change };
    setDraft(next);
    onApply(next);
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onApply(draft);
      }}
      aria-label="Event filters"
    >
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput label="Stream prefix" placeholder="fundraiser-" {...text('streamPrefix')} w={180} />
        <TextInput label="Event types" placeholder="ScanRecorded, DonationRecorded" {...text('type')} w={260} />
        <TextInput label="From (UTC day)" type="date" {...text('from')} w={160} />
        <TextInput label="To (UTC day)" type="date" {...text('to')} w={160} />
        <Button type="submit">Apply</Button>
      </Group>
      <Group mt="sm" gap="lg">
        <SegmentedControl
          aria-label="Order"
          value={draft.order}
          onChange={(order) => applyNow({ order: order === 'oldest' ? 'oldest' : 'newest' })}
          data={[
            { value: 'newest', label: 'Newest first' },
            { value: 'oldest', label: 'Oldest first' },
          ]}
        />
        <Switch
          label="Reveal personal data (names and emails)"
          checked={draft.reveal}
          onChange={(event) => applyNow({ reveal: event.currentTarget.checked })}
        />
      </Group>
    </form>
  );
}
