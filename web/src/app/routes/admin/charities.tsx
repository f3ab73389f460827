import { Button, Modal } from '@mantine/core';
import type { Charity } from '@qrshirt/contracts';
import { useState } from 'react';
import { PageLoader } from '@/components/page-loader';
import { useAdminCharities } from '@/features/admin/api/get-charities';
import { CharitiesTable } from '@/features/admin/components/charities-table';
import { CharityForm } from '@/features/admin/components/charity-form';
import { LoadFailed } from '@/features/admin/components/load-failed';
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
      {charities.isPending ? (
        <PageLoader label="Loading charities..." />
      ) : charities.isError ? (
        <LoadFailed what="the charities" error={charities.error} onRetry={() => void charities.refetch()} />
      ) : (
        <CharitiesTable charities={charities.data} onEdit={(charity) => setEditing({ charity })} />
      )}
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
