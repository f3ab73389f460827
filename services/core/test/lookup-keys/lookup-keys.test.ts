import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createLookupKeys,
  keyedStreamName,
  LOOKUP_KEY,
  unkeyedEmailHash,
  unkeyedPhoneHash,
  unkeyedWaitlistSignupHash,
} from '../../src/index';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const secret = 'a-lookup-key-secret-of-these-tests-only';
const keys = createLookupKeys(secret);
const signup = { email: 'ada@example.org', size: 'M', charityId: 'water' };

describe('lookup keys', () => {
  it('differ from the unkeyed hashes names carried before, and hold none of them', () => {
    const old = [sha256('ada@example.org'), unkeyedWaitlistSignupHash(signup), sha256('+15555550123')];
    const keyed = [keys.email('ada@example.org'), keys.waitlistSignup(signup), keys.phone('+15555550123')];
    // The unkeyed hashes, as the names of logs written before held them.
    expect(old).toEqual([
      unkeyedEmailHash('ada@example.org'),
      sha256('ada@example.org\0M\0water'),
      unkeyedPhoneHash('+15555550123'),
    ]);
    for (const [i, key] of keyed.entries()) {
      expect(key).toMatch(LOOKUP_KEY);
      expect(key).not.toContain(old[i]);
      expect(old[i]).not.toMatch(LOOKUP_KEY);
    }
    expect(new Set(keyed).size).toBe(3);
  });

  it('are the same for any spelling of an address', () => {
    expect(keys.email(' Ada@Example.ORG ')).toBe(keys.email('ada@example.org'));
    expect(keys.email('ada@example.org')).not.toBe(keys.email('ada@example.com'));
    expect(keys.waitlistSignup({ email: 'ADA@example.org ', size: ' M', charityId: 'water ' })).toBe(
      keys.waitlistSignup(signup),
    );
    expect(keys.waitlistSignup({ ...signup, size: 'L' })).not.toBe(keys.waitlistSignup(signup));
    expect(keys.waitlistSignup({ ...signup, charityId: 'givedirectly' })).not.toBe(keys.waitlistSignup(signup));
  });

  it('depend on the secret: the same under the same one, others under another', () => {
    const again = createLookupKeys(secret);
    const other = createLookupKeys(`${secret}!`);
    for (const make of [
      (k: typeof keys) => k.email('ada@example.org'),
      (k: typeof keys) => k.waitlistSignup(signup),
      (k: typeof keys) => k.phone('+15555550123'),
    ]) {
      expect(make(again)).toBe(make(keys));
      expect(make(other)).not.toBe(make(keys));
    }
    expect(again.fingerprint).toBe(keys.fingerprint);
    expect(other.fingerprint).not.toBe(keys.fingerprint);
    expect(keys.fingerprint).not.toContain(secret);
  });

  it('follow from the unkeyed hash alone, so an old name maps to its new one without the address', () => {
    expect(keys.fromUnkeyed(unkeyedEmailHash('Ada@Example.org'))).toBe(keys.email('ada@example.org'));
    expect(keys.fromUnkeyed(unkeyedWaitlistSignupHash(signup))).toBe(keys.waitlistSignup(signup));
    expect(keys.fromUnkeyed(unkeyedPhoneHash('+15555550123'))).toBe(keys.phone('+15555550123'));
    // A key is not an unkeyed hash: nothing is keyed twice.
    expect(() => keys.fromUnkeyed(keys.email('ada@example.org'))).toThrow(/unkeyed hash/);
  });

  it('refuse a secret too short to key anything', () => {
    expect(() => createLookupKeys('short')).toThrow(/at least 32 characters/);
    expect(() => createLookupKeys('')).toThrow(/at least 32 characters/);
  });
});

describe('stream names of logs written before lookup keys', () => {
  const email = unkeyedEmailHash('ada@example.org');
  const signupHash = unkeyedWaitlistSignupHash(signup);

  it("map to the names their keys give them: an address's reservation, a waitlist signup", () => {
    expect(keyedStreamName(keys, `email-${email}`)).toBe(`email-${keys.email('ada@example.org')}`);
    expect(keyedStreamName(keys, `waitlist-scan-me.${signupHash}`)).toBe(
      `waitlist-scan-me.${keys.waitlistSignup(signup)}`,
    );
  });

  it('leave every other name alone: keyed ones, legacy lists, removals, anything else', () => {
    for (const name of [
      `email-${keys.email('ada@example.org')}`,
      `waitlist-scan-me.${keys.waitlistSignup(signup)}`,
      'waitlist-scan-me',
      'waitlist-removal-entry-1',
      `user-${email}`,
      `email-${email}x`,
      `email-${email.toUpperCase()}`,
    ]) {
      expect(keyedStreamName(keys, name), name).toBeNull();
    }
  });
});
