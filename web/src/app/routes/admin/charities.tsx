import { Button, Modal } from '@mantine/core';
import type { Charity } from '@qrshirt/contracts';
import { useState } from 'react';
import { useAdminCharities } from '@/features/admin/api/get-charities';
import { CharitiesTable } from '@/features/admin/components/charities-table';
import { CharityForm } from '@/features/admin/components/charity-form';
import { Loaded } from '@/features/admin/components/loaded';
import { PageHeader } from '@/features/admin/components/page-header';
import { showSuccessToast } from '@/lib/toast';

/** Which form is open: a new charity, one being edited, or none. */
type Editing = { charity?: Charity } | null;

export function AdminCharitiesRoute() {
  const charities = useAdminCharities();
  const [editing, setEditing] = useState<Editing>(null);
  const saved = (charity: Charity) => {
    showSuccessToast(editing?.charity ? 'Charity saved' : 'Charity created', `${charity.name} is in the shop now.`);
    setEditing(null);
  };

  return (
    <>
      <PageHeader
        title="Charities"
        note="The charities visitors choose from. Each change is recorded as an event."
        action={<Button onClick={() => setEditing({})}>New charity</Button>}
      />
      <Loaded query={charities} loading="Loading charities..." what="the charities">
        {(data) => <CharitiesTable charities={data} onEdit={(charity) => setEditing({ charity })} />}
      </Loaded>
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
