import type { EventOf } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../src/kit/fold-events';
import {
  CONFIRMATION_LINK_USED,
  confirmationTokenFor,
  ENTRY_REMOVED,
  INVALID_CONFIRMATION_LINK,
  type JoinWaitlist,
  legacyWaitlistStreamName,
  signupStreamOfToken,
  waitlistDecider,
  waitlistSignupStreamName,
} from '../../src/waitlist/waitlist-decider';
import { deciderSpec } from './decider-spec';
import { T0, T1, charity, lookupKeys, shirt } from './fixtures';
import { createLookupKeys, unkeyedWaitlistSignupHash } from '../../src/kit/lookup-keys';

const spec = deciderSpec(waitlistDecider);

const join: JoinWaitlist = {
  type: 'JoinWaitlist',
  entryId: 'entry-1',
  shirt,
  charityId: 'givedirectly',
  charity,
  name: '  Ada Lovelace ',
  email: ' ada@example.com ',
  size: 'M',
  earlierEntryId: null,
  confirmTokenHash: 'hash-of-token',
  removeTokenHash: 'hash-of-removal',
  removed: false,
  at: T0,
};

const joined: EventOf<'WaitlistJoined'> = {
  type: 'WaitlistJoined',
  data: {
    entryId: 'entry-1',
    shirtId: 'scan-me-maybe',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    size: 'M',
    charityId: 'givedirectly',
    confirmTokenHash: 'hash-of-token',
    removeTokenHash: 'hash-of-removal',
    at: T0,
  },
};

const confirmed: EventOf<'WaitlistEntryConfirmed'> = {
  type: 'WaitlistEntryConfirmed',
  data: { entryId: 'entry-1', at: T1 },
};

describe('waitlist decider', () => {
  it('joins with the name and email trimmed', () => {
    spec.given([]).when(join).then([joined]);
  });

  it('checks presence in the spec order: size, charity, name, email', () => {
    const empty = { ...join, size: ' ', charityId: '', charity: null, name: '', email: '' };
    spec.given([]).when(empty).thenFails('validation', 'selectedSize is required');
    spec
      .given([])
      .when({ ...empty, size: 'M' })
      .thenFails('validation', 'selectedCharity is required');
    spec
      .given([])
      .when({ ...empty, size: 'M', charityId: 'givedirectly' })
      .thenFails('validation', 'name is required');
    spec
      .given([])
      .when({ ...empty, size: 'M', charityId: 'givedirectly', name: ' Ada ', email: '   ' })
      .thenFails('validation', 'email is required');
  });

  it.each([
    ['ada'],
    ['ada@'],
    ['@example.com'],
    ['ada @example.com'],
    ['ada@exa mple.com'],
    ['ada@-example.com'],
    ['a,b@example.com'],
  ])('refuses %j, which an email input would not submit', (email) => {
    spec
      .given([])
      .when({ ...join, email })
      .thenFails('validation', 'email must be a valid email address');
  });

  it.each([['ada@localhost'], ["o'brien+shirts@mail.example.co.uk"]])('accepts %j, as an email input does', (email) => {
    spec
      .given([])
      .when({ ...join, email })
      .then([{ ...joined, data: { ...joined.data, email } }]);
  });

  it('refuses a name longer than 200 characters', () => {
    spec
      .given([])
      .when({ ...join, name: 'x'.repeat(201) })
      .thenFails('validation', 'name must be at most 200 characters');
  });

  it('refuses a shirt that does not exist', () => {
    spec
      .given([])
      .when({ ...join, shirt: null })
      .thenFails('not_found', 'Shirt not found');
  });

  it("refuses a size that is not among the shirt's sizes", () => {
    spec
      .given([])
      .when({ ...join, size: 'XXL' })
      .thenFails('validation', "selectedSize must be one of the shirt's sizes: S, M, L");
  });

  it('refuses a charity that does not exist', () => {
    spec
      .given([])
      .when({ ...join, charityId: 'nope', charity: null })
      .thenFails('not_found', 'Charity not found');
  });

  it('refuses a charity awaiting review or rejected, as if it did not exist', () => {
    spec
      .given([])
      .when({ ...join, charity: { ...charity, status: 'pending' } })
      .thenFails('not_found', 'Charity not found');
    spec
      .given([])
      .when({ ...join, charity: { ...charity, status: 'rejected' } })
      .thenFails('not_found', 'Charity not found');
  });

  it('records nothing new for a repeated signup: its stream holds it already', () => {
    spec
      .given([joined, confirmed])
      .when({ ...join, entryId: 'entry-2', email: 'ADA@example.com', at: T1 })
      .then([]);
  });

  it("records nothing new for a signup already on the shirt's list of an old log", () => {
    spec
      .given([])
      .when({ ...join, entryId: 'entry-2', earlierEntryId: 'entry-0', at: T1 })
      .then([]);
  });

  it('still checks a repeated signup, which cannot slip past a rule', () => {
    spec
      .given([joined])
      .when({ ...join, size: 'XXL' })
      .thenFails('validation', "selectedSize must be one of the shirt's sizes: S, M, L");
  });

  it('keeps the first entry id of the signup, unconfirmed until its link is opened', () => {
    const entry = {
      entryId: 'entry-1',
      shirtId: 'scan-me-maybe',
      size: 'M',
      confirmTokenHashes: ['hash-of-token'],
      removeTokenHashes: ['hash-of-removal'],
      mailedAt: T0,
    };
    expect(foldEvents(waitlistDecider, [joined])).toEqual({ ...entry, confirmed: false });
    expect(foldEvents(waitlistDecider, [joined, confirmed])).toEqual({ ...entry, confirmed: true });
  });

  it('counts an entry that joined before signups were confirmed as confirmed', () => {
    const { confirmTokenHash: _hash, removeTokenHash: _removal, ...before } = joined.data;
    expect(foldEvents(waitlistDecider, [{ type: 'WaitlistJoined', data: before }])).toMatchObject({
      confirmTokenHashes: [],
      removeTokenHashes: [],
      confirmed: true,
    });
  });

  it('makes a new entry when the signup comes again after its person removed it', () => {
    const again = { ...join, entryId: 'entry-2', confirmTokenHash: 'hash-2', removeTokenHash: 'removal-2', at: T1 };
    const rejoined = {
      type: 'WaitlistJoined' as const,
      data: { ...joined.data, entryId: 'entry-2', confirmTokenHash: 'hash-2', removeTokenHash: 'removal-2', at: T1 },
    };
    spec
      .given([joined, confirmed])
      .when({ ...again, removed: true })
      .then([rejoined]);
    // Its links are the new entry's only: the removed entry's no longer confirm anything.
    expect(foldEvents(waitlistDecider, [joined, confirmed, rejoined])).toMatchObject({
      entryId: 'entry-2',
      confirmTokenHashes: ['hash-2'],
      removeTokenHashes: ['removal-2'],
      confirmed: false,
    });
  });

  it('reads an entry whose name and email were erased (null) like any other', () => {
    const erased = { ...joined, data: { ...joined.data, name: null, email: null } };
    expect(foldEvents(waitlistDecider, [erased])).toEqual(foldEvents(waitlistDecider, [joined]));
  });
});

describe('confirming a signup', () => {
  const confirm = { type: 'ConfirmWaitlistEntry' as const, tokenHash: 'hash-of-token', removed: false, at: T1 };

  it('confirms with the hash of the mailed token, once: a link opened again says it was used', () => {
    spec.given([joined]).when(confirm).then([confirmed]);
    spec.given([joined, confirmed]).when(confirm).thenFails('conflict', CONFIRMATION_LINK_USED);
  });

  it('confirms nothing for an entry its person removed', () => {
    spec
      .given([joined])
      .when({ ...confirm, removed: true })
      .thenFails('gone', ENTRY_REMOVED);
  });

  it('mails a new link to a repeated unconfirmed signup once the last is 10 minutes old; every link mailed works', () => {
    const later = new Date(Date.parse(T0) + 10 * 60_000).toISOString();
    const again = {
      ...join,
      entryId: 'entry-2',
      confirmTokenHash: 'hash-of-second',
      removeTokenHash: 'removal-of-second',
      at: later,
    };
    const resent: EventOf<'WaitlistConfirmationResent'> = {
      type: 'WaitlistConfirmationResent',
      data: { entryId: 'entry-1', confirmTokenHash: 'hash-of-second', removeTokenHash: 'removal-of-second', at: later },
    };
    spec.given([joined]).when(again).then([resent]);
    // Sooner, or once confirmed, or after a resend a moment ago: nothing.
    spec
      .given([joined])
      .when({ ...again, at: new Date(Date.parse(later) - 1).toISOString() })
      .then([]);
    spec.given([joined, confirmed]).when(again).then([]);
    spec.given([joined, resent]).when(again).then([]);
    // The removal links of both mails work too.
    expect(foldEvents(waitlistDecider, [joined, resent])?.removeTokenHashes).toEqual([
      'hash-of-removal',
      'removal-of-second',
    ]);
    for (const tokenHash of ['hash-of-token', 'hash-of-second']) {
      spec
        .given([joined, resent])
        .when({ ...confirm, tokenHash })
        .then([{ ...confirmed, data: { ...confirmed.data, at: T1 } }]);
    }
  });

  it('refuses another token, and a stream without a signup, alike', () => {
    spec
      .given([joined])
      .when({ ...confirm, tokenHash: 'hash-of-another' })
      .thenFails('not_found', INVALID_CONFIRMATION_LINK);
    spec.given([]).when(confirm).thenFails('not_found', INVALID_CONFIRMATION_LINK);
  });
});

describe('waitlist streams', () => {
  const signup = { email: 'ada@example.com', size: 'M', charityId: 'givedirectly' };
  const key = lookupKeys.waitlistSignup(signup);

  it('gives each signup its own stream: one per shirt, email in any case, size and charity', () => {
    const stream = waitlistSignupStreamName(lookupKeys, 'scan-me-maybe', signup);
    expect(stream).toBe(`waitlist-scan-me-maybe.${key}`);
    expect(waitlistSignupStreamName(lookupKeys, 'scan-me-maybe', { ...signup, email: ' Ada@Example.COM ' })).toBe(
      stream,
    );
    expect(waitlistSignupStreamName(lookupKeys, 'scan-me-maybe', { ...signup, size: 'L' })).not.toBe(stream);
    expect(waitlistSignupStreamName(lookupKeys, 'scan-me-maybe', { ...signup, charityId: 'water' })).not.toBe(stream);
    expect(waitlistSignupStreamName(lookupKeys, 'plot-twist', signup)).not.toBe(stream);
  });

  it('names no address in a stream, and never a legacy list of one shirt', () => {
    const stream = waitlistSignupStreamName(lookupKeys, 'scan-me-maybe', signup);
    expect(stream).not.toContain('ada');
    expect(stream).toMatch(/^waitlist-scan-me-maybe\.k-[0-9a-f]{64}$/);
    // Shirt ids are letters, digits, "-" and "_": no legacy stream name holds a dot.
    expect(legacyWaitlistStreamName('scan-me-maybe')).toBe('waitlist-scan-me-maybe');
  });

  it("names its signup's stream in a confirmation token, and nothing else passes for one", () => {
    const stream = waitlistSignupStreamName(lookupKeys, 'scan-me-maybe', signup);
    const token = confirmationTokenFor(stream, 'c2VjcmV0');
    expect(token).toBe(`scan-me-maybe.${key}.c2VjcmV0`);
    expect(signupStreamOfToken(lookupKeys, token)).toBe(stream);
    for (const bad of ['', 'x', 'scan-me-maybe.abc.secret', `../x.${key}.s`, `${token}.more`, 'a.k-abc.s']) {
      expect(signupStreamOfToken(lookupKeys, bad)).toBeNull();
    }
  });

  it('takes a token mailed before lookup keys, which holds the unkeyed hash, to the same stream', () => {
    const stream = waitlistSignupStreamName(lookupKeys, 'scan-me-maybe', signup);
    const mailedBefore = `scan-me-maybe.${unkeyedWaitlistSignupHash(signup)}.c2VjcmV0`;
    expect(signupStreamOfToken(lookupKeys, mailedBefore)).toBe(stream);
    const otherSecret = createLookupKeys('another-lookup-key-secret'.padEnd(40, 'y'));
    expect(signupStreamOfToken(otherSecret, mailedBefore)).not.toBe(stream);
  });
});
