import type { CommandHandler } from '../kit/command-handler';
import type { CatalogueEntries } from '../ports/catalogue';
import { charityDecider, charityStreamName } from './charity-decider';
import { shirtDecider, shirtStreamName } from './shirt-decider';

/** The catalogue port of fundraisers, the waitlist and fulfilment: one stream read per entry. */
export function createCatalogueEntries(commands: CommandHandler): CatalogueEntries {
  return {
    charity: (charityId) => commands.loadState(charityStreamName(charityId), charityDecider),
    shirt: (shirtId) => commands.loadState(shirtStreamName(shirtId), shirtDecider),
  };
}
