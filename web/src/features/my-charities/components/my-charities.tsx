import { Anchor, Badge, Card, Table, Title } from '@mantine/core';
import type { CharityStatus } from '@qrshirt/contracts';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useMyCharities } from '../api/get-my-charities';

const review: Record<CharityStatus, { label: string; color: string }> = {
  pending: { label: 'Awaiting review', color: 'yellow' },
  approved: { label: 'Approved', color: 'green' },
  rejected: { label: 'Turned down', color: 'red' },
};

/**
 * The charities the member submitted, each with its review and, once approved, the way to its
 * Stripe payouts page. Nothing at all for a member who submitted none, which is nearly everyone:
 * the dashboard stays as the spec draws it for them. A list that fails to load is left out too,
 * rather than taking the owner's dashboard with it.
 */
export function MyCharities({ uid }: { uid: string }) {
  const charities = useMyCharities(uid).data?.charities ?? [];
  if (charities.length === 0) return null;
  return (
    <section aria-labelledby="my-charities-title">
      <Title order={2} id="my-charities-title" mb="md">
        Your Charities
      </Title>
      <Card withBorder radius="md" padding="md">
        <Table verticalSpacing="sm" aria-labelledby="my-charities-title">
          <Table.Tbody>
            {charities.map((charity) => (
              <Table.Tr key={charity.id}>
                <Table.Th scope="row">{charity.name}</Table.Th>
                <Table.Td>
                  <Badge color={review[charity.status].color} variant="light" c="dark.8">
                    {review[charity.status].label}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {charity.status === 'approved' && (
                    <Anchor
                      component={Link}
                      to={paths.charityPayouts(charity.id)}
                      aria-label={`Stripe payouts of ${charity.name}`}
                    >
                      Stripe payouts
                    </Anchor>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </section>
  );
}
