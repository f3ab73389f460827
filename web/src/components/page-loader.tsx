import { Center, Loader } from '@mantine/core';

/** While a route's code or the session is on its way. */
export function PageLoader({ label = 'Loading...' }: { label?: string }) {
  return (
    <Center py={80} role="status" aria-label={label}>
      <Loader />
    </Center>
  );
}
