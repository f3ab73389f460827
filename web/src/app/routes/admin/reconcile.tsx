import { Button, Group, Stack, TextInput } from '@mantine/core';
import type { AdminReconcileQuery } from '@qrshirt/contracts';
import { useState } from 'react';
import { useReconciliation } from '@/features/admin/api/get-reconciliation';
import { Loaded } from '@/features/admin/components/loaded';
import { PageHeader } from '@/features/admin/components/page-header';
import { ReconciliationTable } from '@/features/admin/components/reconciliation-table';

export function AdminReconcileRoute() {
  const [dates, setDates] = useState({ from: '', to: '' });
  // Asked when the admin says so, not at every keystroke of a date.
  const [asked, setAsked] = useState<AdminReconcileQuery | null>(null);
  const reconciliation = useReconciliation(asked);
  const date = (name: keyof typeof dates) => ({
    value: dates[name],
    required: true,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const { value } = event.currentTarget;
      setDates((current) => ({ ...current, [name]: value }));
    },
  });

  return (
    <>
      <PageHeader
        title="Reconcile"
        note="The ledger beside Stripe's balance transactions (per payment: money, Stripe's fees, the platform's) and its transfers to each charity, as npm run reconcile compares them. Compare closed periods."
      />
      <Stack gap="lg">
        <form
          aria-label="Reconcile with Stripe"
          onSubmit={(event) => {
            event.preventDefault();
            setAsked({ ...dates });
          }}
        >
          <Group align="flex-end">
            <TextInput type="date" label="From (UTC day)" {...date('from')} />
            <TextInput type="date" label="To (UTC day)" {...date('to')} />
            <Button type="submit" loading={reconciliation.isFetching}>
              Compare with Stripe
            </Button>
          </Group>
        </form>
        {asked && (
          <Loaded query={reconciliation} loading="Asking Stripe..." what="the reconciliation">
            {(data) => <ReconciliationTable reconciliation={data} />}
          </Loaded>
        )}
      </Stack>
    </>
  );
}
