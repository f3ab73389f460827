import { Alert, Button, Group } from '@mantine/core';

/** A page's data did not come: what the server said, and a way to ask again. */
export function LoadFailed({ what, error, onRetry }: { what: string; error: Error; onRetry: () => void }) {
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
