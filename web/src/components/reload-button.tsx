import { Button } from '@mantine/core';
import { useLocation } from 'react-router';

/**
 * Try Again, which loads this address again. A form rather than `location.reload()`: its button
 * works as soon as it is painted, before the page's script is live (a server-rendered page's
 * error view is never hydrated). The address's query goes with it, field by field, as a GET form
 * would otherwise drop it.
 */
export function ReloadButton() {
  const { pathname, search } = useLocation();
  return (
    <form method="get" action={pathname}>
      {[...new URLSearchParams(search)].map(([name, value], index) => (
        <input key={index} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit">Try Again</Button>
    </form>
  );
}
