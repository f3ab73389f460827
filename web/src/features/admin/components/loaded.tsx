import { Alert, Button, Group } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { PageLoader } from '@/components/page-loader';

interface LoadedProps<Data> {
  query: UseQueryResult<Data>;
  /** What the loader says while the data is on its way. */
  loading: string;
  /** What did not come, for the failure's title: "the charities". */
  what: string;
  children: (data: Data) => React.ReactNode;
}

/** A part of an admin page once its data has come; till then a loader, on failure a way to ask again. */
export function Loaded<Data>({ query, loading, what, children }: LoadedProps<Data>) {
  if (query.isPending) return <PageLoader label={loading} />;
  if (query.isError) return <LoadFailed what={what} error={query.error} onRetry={() => void query.refetch()} />;
  return children(query.data);
}

function LoadFailed({ what, error, onRetry }: { what: string; error: Error; onRetry: () => void }) {
  return (
    <Alert color="red" title={`Could not load ${what}`}>
      <Group justify="space-between">
        <span>{error.message}</span>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          Try Again
        </Button>
      </Group>
    </Alert>
  );
}
