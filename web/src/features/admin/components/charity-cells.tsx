import { Anchor, Image, Table, Text } from '@mantine/core';
import type { Charity } from '@qrshirt/contracts';
import { isWebLink } from '@/lib/web-link';

/** The head cells of CharityCells, in the same order. */
export function CharityHeadCells() {
  return (
    <>
      <Table.Th>Logo</Table.Th>
      <Table.Th>Name</Table.Th>
      <Table.Th>Mission</Table.Th>
      <Table.Th>Website</Table.Th>
    </>
  );
}

/**
 * A charity's logo, name, mission and website as table cells, alike in the catalogue's list and the
 * review list. The website is a link only when it is an http(s) address.
 */
export function CharityCells({ charity, missionLines }: { charity: Charity; missionLines: number }) {
  return (
    <>
      <Table.Td>
        {charity.logo_url ? <Image src={charity.logo_url} alt="" w={32} h={32} fit="contain" /> : null}
      </Table.Td>
      <Table.Td fw={600}>{charity.name}</Table.Td>
      <Table.Td>
        <Text size="sm" lineClamp={missionLines}>
          {charity.mission}
        </Text>
      </Table.Td>
      <Table.Td>
        {isWebLink(charity.website_url) ? (
          <Anchor href={charity.website_url} target="_blank" rel="noopener noreferrer" size="sm">
            {charity.website_url}
          </Anchor>
        ) : (
          <Text size="sm">{charity.website_url}</Text>
        )}
      </Table.Td>
    </>
  );
}
