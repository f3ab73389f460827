import type { ErasureAct } from '@qrshirt/core';
import { createCommandHandler, userDecider, userStreamName } from '@qrshirt/core';
import { createSqliteEventStore } from '@qrshirt/sqlite';

/**
 * Records again, in a restored log, each account closing the erasure journal kept: the same
 * `UserAccountClosed` the product appended (who closed it, when), so that the account reads as
 * closed (its tokens refused, an operator's erasure in the audit) rather than open and nameless.
 * An account the log shows closed already, or does not hold (made after the backup), gets
 * nothing: run again, it appends nothing. Answers how many it closed.
 */
export async function recloseAccounts(eventsFile: string, acts: readonly ErasureAct[]): Promise<number> {
  const eventStore = createSqliteEventStore({ path: eventsFile });
  const commands = createCommandHandler({ eventStore });
  let closed = 0;
  try {
    for (const { data } of acts) {
      const stream = userStreamName(data.userId);
      const user = await commands.loadState(stream, userDecider);
      if (!user || user.closed) continue;
      await commands.handle(stream, userDecider, () => ({ type: 'CloseAccount', ...data }));
      closed++;
    }
  } finally {
    await eventStore.close();
  }
  return closed;
}
