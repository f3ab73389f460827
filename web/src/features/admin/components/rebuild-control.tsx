import { Button, Progress, Stack, Text } from '@mantine/core';
import type { AdminProjection } from '@qrshirt/contracts';
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { formatCount } from '@/lib/format';
import { useRebuild } from '../api/get-rebuild';
import { useStartRebuild } from '../api/start-rebuild';

/**
 * Starts a blue/green rebuild of one projection and follows it: readers keep the old version until
 * the new one has caught up, so the button can be pressed while the shop is busy.
 */
export function RebuildControl({ projection }: { projection: AdminProjection }) {
  const queryClient = useQueryClient();
  const start = useStartRebuild();
  const rebuild = useRebuild(projection.name, projection.rebuild !== null || start.isSuccess);
  const status = rebuild.data ?? projection.rebuild;
  const running = status?.state === 'running';

  // When a rebuild ends, the switch to its version shows in the projection's own figures.
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) void queryClient.invalidateQueries({ queryKey: ['admin', 'projections'] });
    wasRunning.current = running;
  }, [running, queryClient]);

  const percent = status && status.total > 0 ? Math.min(100, Math.round((status.done / status.total) * 100)) : 0;
  return (
    <Stack gap={6} miw={200}>
      <Button
        size="xs"
        variant="default"
        loading={start.isPending}
        disabled={running}
        onClick={() => start.mutate(projection.name)}
        aria-label={`Rebuild ${projection.name}`}
      >
        Rebuild
      </Button>
      {start.error && (
        <Text size="xs" c="red" role="alert">
          {start.error.message}
        </Text>
      )}
      {status && (
        <>
          <Progress
            value={running ? percent : 100}
            color={status.state === 'failed' ? 'red' : 'blue'}
            animated={running}
            aria-label={`Rebuild of ${projection.name}`}
          />
          <Text size="xs" c="dimmed" data-testid={`rebuild-${projection.name}`}>
            {status.state === 'running' && `Rebuilding: ${percent}% (${formatCount(status.eventsProjected)} events)`}
            {status.state === 'done' &&
              `Rebuilt to version ${status.toVersion ?? '?'}: ${formatCount(status.eventsProjected)} events`}
            {status.state === 'failed' && `Rebuild failed: ${status.error ?? 'unknown error'}`}
          </Text>
        </>
      )}
    </Stack>
  );
}
