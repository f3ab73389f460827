import { Button, Group, Stack, Text } from '@mantine/core';

interface SizePickerProps {
  sizes: string[];
  value: string | null;
  onChange: (size: string) => void;
}

/** One button per size of the shirt; the chosen one is pressed. */
export function SizePicker({ sizes, value, onChange }: SizePickerProps) {
  return (
    <Stack gap="xs" role="group" aria-labelledby="waitlist-size-label">
      <Text id="waitlist-size-label" fw={600}>
        Select your size
      </Text>
      <Group gap="xs">
        {sizes.map((size) => (
          <Button
            key={size}
            variant={size === value ? 'filled' : 'outline'}
            aria-pressed={size === value}
            onClick={() => onChange(size)}
            // A tap before the page is live is kept by its early script (lib/early-input.ts).
            data-early-field="size"
            data-early-value={size}
            miw={52}
          >
            {size}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}
