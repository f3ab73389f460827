import { Button, Modal, Tabs } from '@mantine/core';
import type { AdminCharity, AdminCharityDetails } from '@qrshirt/contracts';
import { useState } from 'react';
import { useCharitiesForReview } from '@/features/admin/api/get-charities-for-review';
import { CharitiesTable } from '@/features/admin/components/charities-table';
import { CharityForm } from '@/features/admin/components/charity-form';
import { CharityReviewPanel } from '@/features/admin/components/charity-review-panel';
import { Loaded } from '@/features/admin/components/loaded';
import { PageHeader } from '@/features/admin/components/page-header';
import { showSuccessToast } from '@/lib/toast';

/** Which form is open: a new charity, one being edited, or none. */
type Editing = { charity?: AdminCharity } | null;

type Tab = 'shop' | 'pending' | 'rejected';

export function AdminCharitiesRoute() {
  // The admins' list: it gives what donors' receipts name, which the shop's never does.
  const charities = useCharitiesForReview('approved');
  // Asked for on every tab: the Pending tab shows how many wait.
  const pending = useCharitiesForReview('pending');
  const [tab, setTab] = useState<Tab>('shop');
  const [editing, setEditing] = useState<Editing>(null);
  const saved = (charity: AdminCharityDetails) => {
    showSuccessToast(editing?.charity ? 'Charity saved' : 'Charity created', `${charity.name} is in the shop now.`);
    setEditing(null);
  };

  return (
    <>
      <PageHeader
        title="Charities"
        note="The charities visitors choose from. Members' charities wait for review. Each change is recorded as an event."
        action={<Button onClick={() => setEditing({})}>New charity</Button>}
      />
      <Tabs value={tab} onChange={(value) => setTab((value as Tab | null) ?? 'shop')} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="shop">In the shop</Tabs.Tab>
          <Tabs.Tab value="pending">{pending.data ? `Pending (${pending.data.length})` : 'Pending'}</Tabs.Tab>
          <Tabs.Tab value="rejected">Rejected</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="shop">
          <Loaded query={charities} loading="Loading charities..." what="the charities">
            {(data) => <CharitiesTable charities={data} onEdit={(charity) => setEditing({ charity })} />}
          </Loaded>
        </Tabs.Panel>
        <Tabs.Panel value="pending">
          <CharityReviewPanel status="pending" />
        </Tabs.Panel>
        <Tabs.Panel value="rejected">
          <CharityReviewPanel status="rejected" />
        </Tabs.Panel>
      </Tabs>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.charity ? `Edit ${editing.charity.name}` : 'New charity'}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing && (
          <CharityForm
            key={editing.charity?.id ?? 'new'}
            {...(editing.charity && { charity: editing.charity })}
            onSaved={saved}
          />
        )}
      </Modal>
    </>
  );
}
