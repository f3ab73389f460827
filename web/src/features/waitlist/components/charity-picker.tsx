import { Badge, Group, Image, Paper, Select, Stack, Text } from '@mantine/core';
import type { Charity } from '@qrshirt/contracts';
import { useHydrated } from '@/lib/use-hydrated';

interface CharityPickerProps {
  charities: Charity[] | undefined;
  loading: boolean;
  value: string | null;
  onChange: (charityId: string | null) => void;
}

/**
 * Spec: the charity selector with its '{n} available' badge (as written: Mantine's badge
 * capitalises unless told otherwise), then the chosen charity's panel.
 */
export function CharityPicker({ charities, loading, value, onChange }: CharityPickerProps) {
  // Its list opens only by script: on a page the server rendered it waits, and says so, until the
  // page is live (what else the form is given before then is kept: lib/early-input.ts).
  const live = useHydrated();
  const chosen = charities?.find((charity) => charity.id === value);
  const empty = !loading && (charities?.length ?? 0) === 0;

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text component="label" htmlFor="waitlist-charity" fw={600}>
          Choose a charity to support
        </Text>
        {charities && (
          <Badge variant="light" color="blue" tt="none">
            {charities.length} available
          </Badge>
        )}
      </Group>
      {empty ? (
        <Text size="sm" c="dimmed">
          No charities available at the moment. Please try again later.
        </Text>
      ) : (
        <Select
          id="waitlist-charity"
          placeholder={loading ? 'Loading charities...' : 'Select a charity'}
          disabled={loading || !live}
          data={(charities ?? []).map((charity) => ({ value: charity.id, label: charity.name }))}
          value={value}
          onChange={onChange}
          maxDropdownHeight={300}
          allowDeselect={false}
        />
      )}
      {chosen && (
        <Paper withBorder p="sm" radius="md" data-testid="chosen-charity">
          <Group wrap="nowrap" align="flex-start">
            {chosen.logo_url && (
              <Image src={chosen.logo_url} alt={`${chosen.name} logo`} w={48} h={48} loading="lazy" />
            )}
            <Stack gap={2}>
              <Text fw={600}>{chosen.name}</Text>
              <Text size="sm" c="dimmed">
                {chosen.mission}
              </Text>
            </Stack>
          </Group>
        </Paper>
      )}
    </Stack>
  );
}
