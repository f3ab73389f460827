import { Switch } from '@mantine/core';
import { useDailySummary } from '../api/get-daily-summary';
import { useSetDailySummary } from '../api/set-daily-summary';

const DAILY_SUMMARY_LABEL = 'Email me a daily summary on days my shirts are scanned or raise money';

/** The owner's choice of the daily summary mail, saved as soon as it is flipped. */
export function DailySummarySwitch({ uid }: { uid: string }) {
  const current = useDailySummary(uid);
  const save = useSetDailySummary(uid);
  return (
    <Switch
      label={DAILY_SUMMARY_LABEL}
      description="Only to a verified address; quiet days bring no mail, and every mail has a link to stop them."
      checked={current.data ?? false}
      disabled={current.isPending || save.isPending}
      error={save.isError ? save.error.message : current.isError ? 'Your mail settings could not be loaded' : undefined}
      onChange={(event) => save.mutate(event.currentTarget.checked)}
    />
  );
}
