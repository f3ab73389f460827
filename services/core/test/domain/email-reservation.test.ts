import { describe, expect, it } from 'vitest';
import { isValidEmailAddress } from '../../src/kit/email-address';
import { emailReservationDecider, emailReservationStreamName } from '../../src/users/email-reservation';
import { deciderSpec } from './decider-spec';
import { lookupKeys } from './fixtures';

const spec = deciderSpec(emailReservationDecider);
const at = '2025-01-01T00:00:00.000Z';

describe('email reservation decider', () => {
  it('reserves a free address for the user', () => {
    spec
      .given([])
      .when({ type: 'ReserveEmail', userId: 'u-1', at })
      .then([{ type: 'EmailReserved', data: { userId: 'u-1', at } }]);
  });

  it('reserves nothing once someone holds the address', () => {
    spec
      .given([{ type: 'EmailReserved', data: { userId: 'u-1', at } }])
      .when({ type: 'ReserveEmail', userId: 'u-2', at })
      .then([]);
  });

  it('names one stream for every spelling of an address, by its lookup key', () => {
    const name = emailReservationStreamName(lookupKeys, 'Ada@Example.com ');
    expect(name).toBe(emailReservationStreamName(lookupKeys, 'ada@example.com'));
    expect(name).toBe(`email-${lookupKeys.email('ada@example.com')}`);
    expect(name).toMatch(/^email-k-[0-9a-f]{64}$/);
    expect(name).not.toBe(emailReservationStreamName(lookupKeys, 'ada@example.org'));
  });

  it('accepts what an email input accepts', () => {
    expect(isValidEmailAddress('ada@example.com')).toBe(true);
    expect(isValidEmailAddress('ada@localhost')).toBe(true);
    expect(isValidEmailAddress('ada')).toBe(false);
    expect(isValidEmailAddress('ada@@example.com')).toBe(false);
    expect(isValidEmailAddress(`${'a'.repeat(320)}@example.com`)).toBe(false);
  });
});

describe('email verification', () => {
  const reserved = { type: 'EmailReserved', data: { userId: 'u-1', at } } as const;

  it('verifies the address for its holder, once', () => {
    spec
      .given([reserved])
      .when({ type: 'VerifyEmail', userId: 'u-1', via: 'link', at })
      .then([{ type: 'EmailVerified', data: { userId: 'u-1', via: 'link', at } }]);
    spec
      .given([reserved, { type: 'EmailVerified', data: { userId: 'u-1', via: 'link', at } }])
      .when({ type: 'VerifyEmail', userId: 'u-1', via: 'google', at })
      .then([]);
  });

  it('refuses anyone but the holder, and an address nobody holds', () => {
    spec
      .given([reserved])
      .when({ type: 'VerifyEmail', userId: 'u-2', via: 'link', at })
      .thenFails('conflict', 'This address belongs to another account');
    spec
      .given([])
      .when({ type: 'VerifyEmail', userId: 'u-1', via: 'google', at })
      .thenFails('conflict', 'This address belongs to another account');
  });

  it("releases the address of a closed account, and only its holder's", () => {
    const released = { type: 'EmailReleased', data: { userId: 'u-1', at } } as const;
    spec.given([reserved]).when({ type: 'ReleaseEmail', userId: 'u-1', at }).then([released]);
    spec.given([reserved]).when({ type: 'ReleaseEmail', userId: 'u-2', at }).then([]);
    spec.given([reserved, released]).when({ type: 'ReleaseEmail', userId: 'u-1', at }).then([]);
    // Free again: the next account to ask reserves it.
    spec
      .given([reserved, released])
      .when({ type: 'ReserveEmail', userId: 'u-3', at })
      .then([{ type: 'EmailReserved', data: { userId: 'u-3', at } }]);
  });
});
