import type { CommandHandler } from '../kit/command-handler';
import type { SummaryOwners } from '../ports/summary-owners';
import { userDecider, userStreamName } from './user-decider';

/** The owners' mail's port to the accounts: one stream read, or one command, each. */
export function createSummaryOwners(commands: CommandHandler): SummaryOwners {
  return {
    find: (userId) => commands.loadState(userStreamName(userId), userDecider),
    async stopDailySummary(userId, at) {
      await commands.handle(userStreamName(userId), userDecider, () => ({ type: 'StopDailySummary', userId, at }));
    },
  };
}
