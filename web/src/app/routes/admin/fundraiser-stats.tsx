import { Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAdminFundraiserStats } from '@/features/admin/api/get-fundraiser-stats';
import { Loaded } from '@/features/admin/components/loaded';
import { PageHeader } from '@/features/admin/components/page-header';
import { ImpactStatsCard } from '@/features/owner-stats/components/impact-stats-card';
import { formatCount } from '@/lib/format';

/** An operator answering an owner's question sees that fundraiser's figures as its owner does. */
export function AdminFundraiserStatsRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  const shown = searchParams.get('id') ?? '';
  const [typed, setTyped] = useState(shown);
  const stats = useAdminFundraiserStats(shown);

  const show = (event: FormEvent) => {
    event.preventDefault();
    setSearchParams(typed.trim() === '' ? {} : { id: typed.trim() });
  };

  return (
    <>
      <PageHeader title="Fundraiser figures" note="A fundraiser's scans and money, as its owner sees them." />
      <Stack>
        <Card withBorder radius="md" padding="lg">
          <form onSubmit={show}>
            <Group align="end">
              <TextInput
                label="Fundraiser id"
                value={typed}
                onChange={(event) => setTyped(event.currentTarget.value)}
                style={{ flex: 1 }}
              />
              <Button type="submit">Show</Button>
            </Group>
          </form>
        </Card>
        {shown !== '' && (
          <Loaded query={stats} loading="Loading the figures..." what="the figures">
            {(data) => (
              <>
                <ImpactStatsCard stats={data} />
                <Text size="sm" c="dimmed" data-testid="fundraiser-counts">
                  {formatCount(data.donations)} confirmed donations; {formatCount(data.scanRequests)} scan requests,
                  counted or not
                </Text>
              </>
            )}
          </Loaded>
        )}
      </Stack>
    </>
  );
}
