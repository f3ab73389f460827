import { Group, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useAdminShirts } from '@/features/admin/api/get-shirts';
import { useFunnel } from '@/features/admin/api/get-funnel';
import { FunnelCharts } from '@/features/admin/components/funnel-charts';
import { Loaded } from '@/features/admin/components/loaded';
import { PageHeader } from '@/features/admin/components/page-header';

export function AdminFunnelRoute() {
  // Empty: the server's default, the 30 days up to today.
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [shirtId, setShirtId] = useState<string | null>(null);
  const shirts = useAdminShirts();
  const funnel = useFunnel({ from: from || undefined, to: to || undefined, shirtId: shirtId ?? undefined });
  const shirtNames = new Map((shirts.data ?? []).map((shirt) => [shirt.id, shirt.name]));

  return (
    <>
      <PageHeader
        title="Funnel"
        note="Per UTC day and per shirt, from the events already stored: page views to claimed shirts, scans to confirmed donations."
      />
      <Stack gap="lg">
        <Group align="flex-end">
          <TextInput type="date" label="From" value={from} onChange={(event) => setFrom(event.currentTarget.value)} />
          <TextInput type="date" label="To" value={to} onChange={(event) => setTo(event.currentTarget.value)} />
          <Select
            label="Shirt"
            placeholder="Every shirt"
            clearable
            data={(shirts.data ?? []).map((shirt) => ({ value: shirt.id, label: shirt.name }))}
            value={shirtId}
            onChange={setShirtId}
          />
        </Group>
        <Loaded query={funnel} loading="Loading the funnel..." what="the funnel">
          {(data) => <FunnelCharts funnel={data} shirtNames={shirtNames} />}
        </Loaded>
      </Stack>
    </>
  );
}
