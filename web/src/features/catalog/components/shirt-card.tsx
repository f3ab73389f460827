import { Anchor, AspectRatio, Badge, Button, Card, Group, Image, Stack, Text, Title } from '@mantine/core';
import type { Shirt } from '@qrshirt/contracts';
import { Link } from 'react-router';
import { SHOP_CARD_MAX_SIZES, SHOP_CARD_MAX_TAGS } from '@/config/constants';
import { paths } from '@/config/paths';
import { mainImage } from '@/lib/main-image';
import { firstWithRest } from './first-with-rest';
import classes from './shirt-card.module.css';

interface ShirtCardProps {
  shirt: Shirt;
  /** Told about a click on the card or on either of its buttons, as the detail page opens. */
  onOpen: (shirt: Shirt) => void;
  /** The shop's first card: its picture is the page's largest paint, fetched at once. */
  first?: boolean;
}

/** The first few of a list as badges, then '+N' for the rest. */
function BadgeRow({
  label,
  list,
  variant,
  color,
  children,
}: {
  label: string;
  list: { shown: string[]; rest: number };
  variant: 'outline' | 'light';
  color: string;
  children?: React.ReactNode;
}) {
  return (
    <Group gap={6} aria-label={label}>
      {list.shown.map((item) => (
        <Badge key={item} variant={variant} color={color}>
          {item}
        </Badge>
      ))}
      {list.rest > 0 && (
        <Badge variant={variant} color={color}>
          +{list.rest}
        </Badge>
      )}
      {children}
    </Group>
  );
}

export function ShirtCard({ shirt, onOpen, first = false }: ShirtCardProps) {
  const image = mainImage(shirt);
  const sizes = firstWithRest(shirt.sizes, SHOP_CARD_MAX_SIZES);
  const tags = firstWithRest(shirt.tags ?? [], SHOP_CARD_MAX_TAGS);
  const href = paths.shirt(shirt.id);
  // Every way into the shirt is a real link, so that a tap works before the page is live (the
  // early script in boot.ts records it then, from these attributes) and "open in new tab" works.
  const link = {
    component: Link,
    to: href,
    onClick: () => onOpen(shirt),
    'data-shirt-id': shirt.id,
    'data-shirt-name': shirt.name,
  };

  return (
    <Card withBorder radius="md" padding="md" className={classes.card} data-testid="shirt-card">
      <Card.Section className={classes.media}>
        <AspectRatio ratio={1}>
          <Image
            src={image?.url}
            alt={image?.alt ?? shirt.name}
            loading={first ? 'eager' : 'lazy'}
            fetchPriority={first ? 'high' : 'auto'}
            fallbackSrc="/favicon.svg"
          />
        </AspectRatio>
        <div className={classes.badges}>
          {shirt.category ? <Badge color="dark">{shirt.category}</Badge> : <span />}
          <Badge color="teal.9">${shirt.price.toFixed(2)}</Badge>
        </div>
        <div className={classes.hoverAction}>
          <Button {...link} variant="white" color="dark">
            View Details
          </Button>
        </div>
      </Card.Section>
      <Stack gap="xs" mt="md" style={{ flex: 1 }}>
        <Title order={3} size="h4">
          {/* Its box covers the card: a tap anywhere else on the card follows it. */}
          <Anchor {...link} c="inherit" underline="never" className={classes.cardLink}>
            {shirt.name}
          </Anchor>
        </Title>
        <Text size="sm" c="dimmed" lineClamp={3}>
          {shirt.description}
        </Text>
        <BadgeRow label="Sizes" list={sizes} variant="outline" color="gray.8">
          <Text size="xs" c="dimmed">
            {shirt.sizes.length} {shirt.sizes.length === 1 ? 'size' : 'sizes'}
          </Text>
        </BadgeRow>
        {tags.shown.length > 0 && <BadgeRow label="Tags" list={tags} variant="light" color="grape" />}
      </Stack>
      <Button {...link} fullWidth mt="md" className={classes.above}>
        Join Waitlist
      </Button>
    </Card>
  );
}
