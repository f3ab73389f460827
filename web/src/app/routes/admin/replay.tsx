import { PageHeader } from '@/features/admin/components/page-header';
import { ReplayExportForm } from '@/features/admin/components/replay-export-form';

export function AdminReplayRoute() {
  return (
    <>
      <PageHeader
        title="Replay export"
        note="Scans, donations and amount raised replayed from the event log (never the read models), as npm run replay-donations writes them."
      />
      <ReplayExportForm />
    </>
  );
}
