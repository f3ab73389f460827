import type { DomainEvent } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import { type CharityFields, charityDecider, charityStreamName } from './charity-decider';
import { createCommandHandler } from '../kit/command-handler';
import { type Decider, DomainError } from '../kit/decider';
import { type ShirtFields, shirtDecider, shirtStreamName } from './shirt-decider';
import type { EventStore } from '../kit/event-store';
import {
  type SeedCharity,
  type SeedShirt,
  charityLogoUrl,
  seedCharities,
  seedShirts,
  shirtImageUrl,
} from './catalog-data';

export interface SeedCatalogOptions {
  eventStore: EventStore;
  clock: Clock;
}

export interface SeedCatalogResult {
  /** Streams this call created. */
  added: string[];
  /** Streams that already existed and were left as they are. */
  skipped: string[];
}

export function seedShirtFields(shirt: SeedShirt): ShirtFields {
  return {
    name: shirt.name,
    description: shirt.description,
    priceCents: shirt.priceCents,
    ...(shirt.category === undefined ? {} : { category: shirt.category }),
    sizes: shirt.sizes,
    ...(shirt.tags === undefined ? {} : { tags: shirt.tags }),
    images: shirt.images.map((image, index) => ({
      id: `${shirt.shirtId}-${index + 1}`,
      url: shirtImageUrl(shirt.shirtId, index + 1),
      alt: image.alt,
      isMain: image.isMain,
    })),
  };
}

export function seedCharityFields(charity: SeedCharity): CharityFields {
  return {
    name: charity.name,
    mission: charity.mission,
    website_url: charity.website_url,
    logo_url: charityLogoUrl(charity.charityId),
  };
}

/**
 * Adds the starting catalogue. Safe to run at every start and from several processes at once:
 * a stream is only ever created on an empty stream (expected revision "no stream"), and one
 * that exists already is skipped, never updated.
 */
export async function seedCatalog({ eventStore, clock }: SeedCatalogOptions): Promise<SeedCatalogResult> {
  const commands = createCommandHandler({ eventStore });
  const result: SeedCatalogResult = { added: [], skipped: [] };
  const at = clock().toISOString();

  async function createOnce<Command, Event extends DomainEvent, State>(
    streamName: string,
    decider: Decider<Command, Event, State>,
    command: Command,
  ): Promise<void> {
    try {
      await commands.handle(streamName, decider, () => command);
      result.added.push(streamName);
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
      result.skipped.push(streamName);
    }
  }

  for (const charity of seedCharities) {
    await createOnce(charityStreamName(charity.charityId), charityDecider, {
      type: 'CreateCharity',
      charityId: charity.charityId,
      fields: seedCharityFields(charity),
      createdBy: null,
      status: 'approved',
      at,
    });
  }
  for (const shirt of seedShirts) {
    await createOnce(shirtStreamName(shirt.shirtId), shirtDecider, {
      type: 'AddShirt',
      shirtId: shirt.shirtId,
      fields: seedShirtFields(shirt),
      at,
    });
  }
  return result;
}
