import { Button, Group } from '@mantine/core';

/** An edit form's submit button, and word when a save found nothing changed. */
export function SaveRow({ unchanged, saving, label }: { unchanged: boolean; saving: boolean; label: string }) {
  return (
    <Group justify="flex-end">
      {unchanged && <span role="status">Nothing changed.</span>}
      <Button type="submit" loading={saving}>
        {label}
      </Button>
    </Group>
  );
}
