import { describe, it } from 'vitest';
import {
  INVALID_REMOVAL_LINK,
  REMOVED_ALREADY,
  type RemoveWaitlistEntry,
  waitlistRemovalDecider,
} from '../../src/waitlist/waitlist-removal-decider';
import { deciderSpec } from './decider-spec';
import { T0, T1 } from './fixtures';

const spec = deciderSpec(waitlistRemovalDecider);

const remove: RemoveWaitlistEntry = {
  type: 'RemoveWaitlistEntry',
  entryId: 'entry-1',
  tokenHash: 'removal-2',
  mailedTokenHashes: ['removal-1', 'removal-2'],
  at: T0,
};
const removed = { type: 'WaitlistEntryRemoved' as const, data: { entryId: 'entry-1', at: T0 } };

describe('removing a waitlist entry', () => {
  it('removes the entry with the removal link of any of its mails', () => {
    spec.given([]).when(remove).then([removed]);
    spec
      .given([])
      .when({ ...remove, tokenHash: 'removal-1' })
      .then([removed]);
  });

  it('removes once: a second link, or the same again, finds nothing to remove (404)', () => {
    spec
      .given([removed])
      .when({ ...remove, tokenHash: 'removal-1', at: T1 })
      .thenFails('not_found', REMOVED_ALREADY);
  });

  it('refuses a token none of its mails carried, such as its confirmation link', () => {
    spec
      .given([])
      .when({ ...remove, tokenHash: 'hash-of-confirmation' })
      .thenFails('not_found', INVALID_REMOVAL_LINK);
    spec
      .given([])
      .when({ ...remove, mailedTokenHashes: [] })
      .thenFails('not_found', INVALID_REMOVAL_LINK);
  });
});

describe('removing the entries of a closed account', () => {
  const closing = { type: 'RemoveEntryOfClosedAccount' as const, entryId: 'entry-1', at: T1 };

  it('removes the entry, saying why, without any link', () => {
    spec
      .given([])
      .when(closing)
      .then([{ type: 'WaitlistEntryRemoved', data: { entryId: 'entry-1', by: 'account-closed', at: T1 } }]);
  });

  it('leaves an entry removed already as it is, so closing again finishes without failing', () => {
    spec.given([removed]).when(closing).then([]);
  });
});
