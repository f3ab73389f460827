import { Accordion, Badge, Code, Group, Text } from '@mantine/core';
import type { AdminEvent } from '@qrshirt/contracts';

const recorded = (time: string) =>
  new Date(time)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

/**
 * One line per event; opening it shows its data and metadata as JSON. `more`: the page is not the
 * last, so an empty one only means this stretch of the log held no match.
 */
export function EventList({ events, more }: { events: AdminEvent[]; more: boolean }) {
  if (events.length === 0)
    return (
      <Text c="dimmed">
        {more ? 'No matching events in this stretch of the log: Next reads on.' : 'No events match these filters.'}
      </Text>
    );
  return (
    <Accordion variant="separated" multiple chevronPosition="left">
      {events.map((event) => (
        <Accordion.Item key={event.position} value={String(event.position)} data-testid="admin-event">
          <Accordion.Control>
            <Group gap="sm" wrap="wrap">
              <Text size="sm" c="dimmed" ff="monospace">
                #{event.position}
              </Text>
              <Badge variant="light" tt="none">
                {event.type}
              </Badge>
              <Text size="sm" ff="monospace">
                {event.stream}@{event.revision}
              </Text>
              <Text size="sm" c="dimmed">
                {recorded(event.time)}
              </Text>
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            {/* Focusable, so a keyboard can scroll a long line into view. */}
            <Code block tabIndex={0} aria-label={`Event ${event.position} as JSON`}>
              {JSON.stringify({ id: event.id, data: event.data, metadata: event.metadata }, null, 2)}
            </Code>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
