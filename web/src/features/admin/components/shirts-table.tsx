import { Badge, Button, Group, Image, Table } from '@mantine/core';
import type { Shirt } from '@qrshirt/contracts';
import { formatUsd } from '@/lib/format';
import { mainImage } from '@/lib/main-image';
import { DataTable } from './data-table';

/** Every shirt in the shop, each with an Edit button. */
export function ShirtsTable({ shirts, onEdit }: { shirts: Shirt[]; onEdit: (shirt: Shirt) => void }) {
  return (
    <DataTable
      label="Shirts"
      minWidth={640}
      empty="No shirts yet."
      striped
      verticalSpacing="sm"
      rows={shirts}
      head={
        <>
          <Table.Th>Image</Table.Th>
          <Table.Th>Name</Table.Th>
          <Table.Th>Price</Table.Th>
          <Table.Th>Category</Table.Th>
          <Table.Th>Sizes</Table.Th>
          <Table.Th aria-label="Actions" />
        </>
      }
    >
      {(shirt) => (
        <Table.Tr key={shirt.id}>
          <Table.Td>
            {mainImage(shirt) ? (
              <Image src={mainImage(shirt)!.url} alt="" w={40} h={40} fit="cover" radius="sm" />
            ) : null}
          </Table.Td>
          <Table.Td fw={600}>{shirt.name}</Table.Td>
          <Table.Td>{formatUsd(shirt.price)}</Table.Td>
          <Table.Td>{shirt.category ?? ''}</Table.Td>
          <Table.Td>
            <Group gap={4}>
              {shirt.sizes.map((size) => (
                <Badge key={size} variant="light" color="gray">
                  {size}
                </Badge>
              ))}
            </Group>
          </Table.Td>
          <Table.Td>
            <Button size="xs" variant="light" onClick={() => onEdit(shirt)} aria-label={`Edit ${shirt.name}`}>
              Edit
            </Button>
          </Table.Td>
        </Table.Tr>
      )}
    </DataTable>
  );
}
