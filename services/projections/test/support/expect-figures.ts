import { expect } from 'vitest';
import { type ReadModelStore, createFundraiserQueries } from '@qrshirt/core';
import { type History, fundraiserIds, HISTORY_NOW, userIds } from './history';

/** Every fundraiser's and owner's figures, per day included, exactly as the history generated them. */
export async function expectFiguresAsGenerated(store: ReadModelStore, history: History): Promise<void> {
  const queries = createFundraiserQueries(store, () => HISTORY_NOW);
  for (const id of fundraiserIds) expect(await queries.getStats(id)).toEqual(history.fundraiserStats(id));
  for (const id of userIds) expect(await queries.getUserStats(id)).toEqual(history.userStats(id));
}
