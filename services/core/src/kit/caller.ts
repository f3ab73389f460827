import { DomainError } from './decider';

/** Who asks, as the gateway verified their token. */
export interface Caller {
  uid: string;
  anonymous: boolean;
}

/** A user may read and change their own account only. */
export function assertSelf(userId: string, caller: Caller): void {
  if (caller.anonymous || caller.uid !== userId) {
    throw new DomainError('forbidden', 'You can only access your own account');
  }
}
