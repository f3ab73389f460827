import { Card } from '@mantine/core';
import { useAudit } from '@/features/admin/api/get-audit';
import { AuditTable } from '@/features/admin/components/audit-table';
import { Loaded } from '@/features/admin/components/loaded';
import { PageHeader } from '@/features/admin/components/page-header';
import { Pager } from '@/features/admin/components/pager';
import { useCursorPages } from '@/features/admin/components/use-cursor-pages';

export function AdminAuditRoute() {
  const pages = useCursorPages();
  const audit = useAudit(pages.cursor);

  return (
    <>
      <PageHeader
        title="Audit trail"
        note="Who saw names and emails in clear, downloaded them or erased a person, and when: recorded before anything was shown."
      />
      <Card withBorder radius="md" padding="lg">
        <Loaded query={audit} loading="Loading the audit trail..." what="the audit trail">
          {(data) => (
            <>
              <AuditTable entries={data.entries} />
              <Pager pages={pages} next={data.next} loading={audit.isPlaceholderData} />
            </>
          )}
        </Loaded>
      </Card>
    </>
  );
}
