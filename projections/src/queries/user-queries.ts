import type { User } from '@qrshirt/contracts';
import { decodeHash } from '../projectors/hash-fields';
import { userKeys, usersProjector } from '../projectors/users';
import type { ReadModelStore } from '../store/read-model-store';

export function createUserQueries(store: ReadModelStore) {
  const users = store.projection(usersProjector.name);
  return {
    async getUser(id: string): Promise<User | null> {
      const hash = await users.hgetall(userKeys.user(id));
      if (Object.keys(hash).length === 0) return null;
      const stored = decodeHash(hash) as Partial<User>;
      return {
        uid: id,
        displayName: stored.displayName ?? null,
        email: stored.email ?? null,
        photoURL: stored.photoURL ?? null,
        dailySummary: stored.dailySummary ?? false,
      };
    },

    /** Who asked for the daily summary mail, as far as the projection has seen. */
    async dailySummarySubscribers(): Promise<string[]> {
      const choices = decodeHash(await users.hgetall(userKeys.dailySummary));
      return Object.keys(choices).filter((userId) => choices[userId] === true);
    },
  };
}
export type UserQueries = ReturnType<typeof createUserQueries>;
