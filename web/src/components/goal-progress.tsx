import { Group, Progress, Stack, Text } from '@mantine/core';
import { formatUsd } from '@/lib/format';

/**
 * How far a shirt is towards its owner's goal, in confirmed money only (a reported donation the
 * processor has not confirmed moves no bar). Nothing at all when the owner set no goal.
 */
export function GoalProgress({ raised, goal, label }: { raised: number; goal: number | null; label?: string }) {
  if (goal === null) return null;
  // A goal of $0 is reached before anything is raised.
  const percent = goal === 0 ? 100 : Math.min(100, Math.round((raised / goal) * 100));
  const name = label ?? 'Progress towards the goal';
  return (
    <Stack gap={4} data-testid="goal-progress">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          {formatUsd(raised)} raised of {formatUsd(goal)} goal
        </Text>
        <Text size="sm" c="dimmed">
          {percent}%
        </Text>
      </Group>
      <Progress value={percent} size="lg" radius="xl" aria-label={name} color={percent >= 100 ? 'teal' : undefined} />
    </Stack>
  );
}
