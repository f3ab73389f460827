import { Button, Modal } from '@mantine/core';
import type { Shirt } from '@qrshirt/contracts';
import { useState } from 'react';
import { useAdminShirts } from '@/features/admin/api/get-shirts';
import { Loaded } from '@/features/admin/components/loaded';
import { PageHeader } from '@/features/admin/components/page-header';
import { ShirtForm } from '@/features/admin/components/shirt-form';
import { ShirtsTable } from '@/features/admin/components/shirts-table';
import { showSuccessToast } from '@/lib/toast';

/** Which form is open: a new shirt, one being edited, or none. */
type Editing = { shirt?: Shirt } | null;

export function AdminShirtsRoute() {
  const shirts = useAdminShirts();
  const [editing, setEditing] = useState<Editing>(null);
  const saved = (shirt: Shirt) => {
    showSuccessToast(editing?.shirt ? 'Shirt saved' : 'Shirt added', `${shirt.name} is in the shop now.`);
    setEditing(null);
  };

  return (
    <>
      <PageHeader
        title="Shirts"
        note="The shop's collection. Each change is recorded as an event."
        action={<Button onClick={() => setEditing({})}>New shirt</Button>}
      />
      <Loaded query={shirts} loading="Loading shirts..." what="the shirts">
        {(data) => <ShirtsTable shirts={data} onEdit={(shirt) => setEditing({ shirt })} />}
      </Loaded>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.shirt ? `Edit ${editing.shirt.name}` : 'New shirt'}
        size="xl"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing && (
          <ShirtForm
            key={editing.shirt?.id ?? 'new'}
            {...(editing.shirt && { shirt: editing.shirt })}
            onSaved={saved}
          />
        )}
      </Modal>
    </>
  );
}
