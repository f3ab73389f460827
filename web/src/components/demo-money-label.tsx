import { Badge } from '@mantine/core';

/** Beside figures that show test money in demo mode: nobody may take them for money raised. */
export function DemoMoneyLabel() {
  return (
    <Badge color="orange" variant="light" c="dark.8" size="lg" data-testid="demo-money-label">
      Demo: no real money
    </Badge>
  );
}
