import type { Charity } from '@qrshirt/contracts';
import type { Clock } from '../clock';
import type { CommandHandler } from '../event-sourcing/command-handler';
import { type CharityFields, type CharityState, charityDecider, charityStreamName } from './charity-decider';

export interface CharityUseCaseDeps {
  commands: CommandHandler;
  clock: Clock;
  newId: () => string;
}

function toCharity(state: CharityState): Charity {
  const { charityId, name, mission, website_url, logo_url } = state;
  return { id: charityId, name, mission, website_url, ...(logo_url !== undefined && { logo_url }) };
}

/** Each change is an event on `charity-<id>`; the shop shows it once the catalogue projection has it. */
export function createCharityUseCases({ commands, clock, newId }: CharityUseCaseDeps) {
  return {
    /** `createdBy`: the member or admin who added it. */
    async create(fields: CharityFields, createdBy: string): Promise<Charity> {
      const charityId = newId();
      const { state } = await commands.handle(charityStreamName(charityId), charityDecider, () => ({
        type: 'CreateCharity',
        charityId,
        fields,
        createdBy,
        at: clock().toISOString(),
      }));
      return toCharity(state!);
    },

    /** Changes the fields given. */
    async update(charityId: string, fields: Partial<CharityFields>): Promise<Charity> {
      const { state } = await commands.handle(charityStreamName(charityId), charityDecider, () => ({
        type: 'UpdateCharity',
        charityId,
        fields,
        at: clock().toISOString(),
      }));
      return toCharity(state!);
    },
  };
}
export type CharityUseCases = ReturnType<typeof createCharityUseCases>;
