import { Button, Stack, Text } from '@mantine/core';
import { useDownloadMyData } from '../api/download-my-data';
import { authFailureMessage } from './auth-failure-message';

/** Saves the signed-in user's data as a JSON file; says why when it could not. */
export function DownloadMyDataButton({ uid }: { uid: string }) {
  const download = useDownloadMyData(uid);
  return (
    <Stack gap={4}>
      <Button variant="default" onClick={() => download.mutate()} loading={download.isPending}>
        Download my data
      </Button>
      {download.isError && (
        <Text size="sm" c="red" role="alert">
          Your data could not be downloaded: {authFailureMessage(download.error)}
        </Text>
      )}
    </Stack>
  );
}
