import { Modal, Stack, Text } from '@mantine/core';
import type { AdminCharity } from '@qrshirt/contracts';
import { useState } from 'react';
import { showSuccessToast } from '@/lib/toast';
import { useApproveCharity } from '../api/approve-charity';
import { useCharitiesForReview } from '../api/get-charities-for-review';
import { CharityReviewTable } from './charity-review-table';
import { Loaded } from './loaded';
import { RejectCharityForm } from './reject-charity-form';

/** The charities of one review status ('pending' or 'rejected'), with approve and reject. */
export function CharityReviewPanel({ status }: { status: 'pending' | 'rejected' }) {
  const charities = useCharitiesForReview(status);
  const approve = useApproveCharity();
  const [rejecting, setRejecting] = useState<AdminCharity | null>(null);

  const approveOne = (charity: AdminCharity) =>
    approve.mutate(charity.id, {
      onSuccess: (approved) => showSuccessToast('Charity approved', `${approved.name} is in the shop now.`),
    });

  return (
    <Loaded query={charities} loading="Loading charities..." what="the charities">
      {(data) => (
        <Stack gap="sm">
          {approve.isError && (
            <Text c="red.8" role="alert">
              {approve.error.message}
            </Text>
          )}
          <CharityReviewTable
            charities={data}
            approving={approve.isPending ? (approve.variables ?? null) : null}
            onApprove={approveOne}
            onReject={setRejecting}
          />
          <Modal
            opened={rejecting !== null}
            onClose={() => setRejecting(null)}
            title={rejecting ? `Reject ${rejecting.name}` : ''}
            closeButtonProps={{ 'aria-label': 'Close' }}
          >
            {rejecting && (
              <RejectCharityForm
                key={rejecting.id}
                charity={rejecting}
                onRejected={(rejected) => {
                  showSuccessToast('Charity rejected', `${rejected.name} stays out of the shop.`);
                  setRejecting(null);
                }}
              />
            )}
          </Modal>
        </Stack>
      )}
    </Loaded>
  );
}
