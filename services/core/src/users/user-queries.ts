import type { User } from '@qrshirt/contracts';
import { decodeHash } from '../kit/hash-fields';
import type { ReadModelStore } from '../ports/read-model-store';
import { userKeys, usersProjector } from './users-projector';

/**
 * The read model keeps names, emails and photos' addresses as the log does, sealed under their person's key:
 * `reveal` opens them (null once the person is erased).
 */
export function createUserQueries(
  store: ReadModelStore,
  { reveal }: { reveal: (values: readonly (string | null)[]) => Promise<(string | null)[]> },
) {
  const users = store.projection(usersProjector.name);
  return {
    async getUser(id: string): Promise<User | null> {
      const hash = await users.hgetall(userKeys.user(id));
      if (Object.keys(hash).length === 0) return null;
      const stored = decodeHash(hash) as Partial<User>;
      const [displayName, email, photoURL] = await reveal([
        stored.displayName ?? null,
        stored.email ?? null,
        stored.photoURL ?? null,
      ]);
      return {
        uid: id,
        displayName: displayName ?? null,
        email: email ?? null,
        photoURL: photoURL ?? null,
        dailySummary: stored.dailySummary ?? false,
      };
    },

    /** Whether the account was closed, as far as the projection has seen (a moment after it was). */
    async isClosed(id: string): Promise<boolean> {
      return (await users.get(userKeys.closed(id))) !== null;
    },

    /** Who asked for the daily summary mail, as far as the projection has seen. */
    async dailySummarySubscribers(): Promise<string[]> {
      const choices = decodeHash(await users.hgetall(userKeys.dailySummary));
      return Object.keys(choices).filter((userId) => choices[userId] === true);
    },
  };
}
export type UserQueries = ReturnType<typeof createUserQueries>;
