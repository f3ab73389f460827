import { List, Text } from '@mantine/core';

/** Spec: the fixed feature list of every shirt. */
const FEATURES = [
  '100% premium cotton',
  'High-quality QR code print that survives the wash',
  'A surprise element for everyone who scans',
  'Supports verified charities',
  'Unisex sizing',
];

export function ShirtFeatures() {
  return (
    <List
      spacing={4}
      size="sm"
      icon={
        <Text span aria-hidden>
          ✓
        </Text>
      }
    >
      {FEATURES.map((feature) => (
        <List.Item key={feature}>{feature}</List.Item>
      ))}
    </List>
  );
}
