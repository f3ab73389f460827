import type { SyncUserRequest, UpdateProfileRequest, User } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import type { LookupKeys } from '../kit/lookup-keys';
import { DomainError } from '../kit/decider';
import { assertSelf, type Caller } from '../kit/caller';
import { emailReservationDecider, emailReservationStreamName } from './email-reservation';
import { EMAIL_CHANGES_BY_LINK, type UserState, userDecider, userStreamName } from './user-decider';

export interface UserUseCaseDeps {
  commands: CommandHandler;
  clock: Clock;
  /** Names an address's reservation stream. */
  lookupKeys: Pick<LookupKeys, 'email'>;
}

const toUser = (uid: string, state: UserState | null): User => ({
  uid,
  displayName: state?.displayName ?? null,
  email: state?.email ?? null,
  photoURL: state?.photoURL ?? null,
  dailySummary: state?.dailySummary ?? false,
});

/** Users' own profiles: read from their stream, so a change shows at once, not after the projection. */
export function createUserUseCases({ commands, clock, lookupKeys }: UserUseCaseDeps) {
  return {
    /**
     * The spec's profile sync: registers the user the first time, updates the profile after. It
     * never changes the address (see `EMAIL_CHANGES_BY_LINK`): a given `email` must be the
     * account's, and a first sync may name only an address reserved for this user already.
     */
    async sync(input: SyncUserRequest, caller: Caller): Promise<User> {
      if (input.uid !== caller.uid) throw new DomainError('forbidden', 'You can only sync your own profile');
      const email = input.email ?? undefined;
      const profile = { displayName: input.displayName ?? null, photoURL: input.photoURL ?? null };
      const registered = await commands.loadState(userStreamName(input.uid), userDecider);
      if (!registered && email !== undefined) {
        const holder = await commands.loadState(emailReservationStreamName(lookupKeys, email), emailReservationDecider);
        if (holder?.userId !== input.uid) throw new DomainError('conflict', EMAIL_CHANGES_BY_LINK);
      }
      const { state } = await commands.handle(userStreamName(input.uid), userDecider, (current) =>
        current
          ? { type: 'UpdateProfile', userId: input.uid, ...profile, expectedEmail: email, at: clock().toISOString() }
          : {
              type: 'RegisterUser',
              userId: input.uid,
              ...profile,
              email: email?.trim() ?? null,
              method: 'password',
              at: clock().toISOString(),
            },
      );
      return toUser(input.uid, state);
    },

    async get(userId: string, caller: Caller): Promise<User> {
      assertSelf(userId, caller);
      const user = await commands.loadState(userStreamName(userId), userDecider);
      if (!user || user.closed) throw new DomainError('not_found', 'User not found');
      return toUser(userId, user);
    },

    async updateProfile(
      userId: string,
      { displayName, photoURL, dailySummary }: UpdateProfileRequest,
      caller: Caller,
    ): Promise<User> {
      assertSelf(userId, caller);
      const { state } = await commands.handle(userStreamName(userId), userDecider, () => ({
        type: 'UpdateProfile',
        userId,
        ...(displayName !== undefined && { displayName }),
        ...(photoURL !== undefined && { photoURL }),
        ...(dailySummary !== undefined && { dailySummary }),
        at: clock().toISOString(),
      }));
      return toUser(userId, state);
    },
  };
}
export type UserUseCases = ReturnType<typeof createUserUseCases>;
