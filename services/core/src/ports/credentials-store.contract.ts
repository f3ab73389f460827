import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CredentialsStore, REFRESH_REUSE_GRACE_MS } from './credentials-store';

/**
 * The behaviour every credentials store adapter must show. `connect` opens a client onto one
 * shared store, as each gateway process would; every test uses fresh random keys.
 */
export function describeCredentialsStoreContract(
  name: string,
  connect: () => CredentialsStore | Promise<CredentialsStore>,
): void {
  describe(`${name} credentials store contract`, () => {
    let store: CredentialsStore;
    let other: CredentialsStore;
    const id = () => randomUUID();
    const NOW = Date.parse('2030-01-01T00:00:00Z');
    const HOUR = 3_600_000;
    const DAY = 24 * HOUR;

    beforeEach(async () => {
      store = await connect();
      other = await connect();
    });
    afterEach(async () => {
      await store.close();
      await other.close();
    });

    it('keeps one password hash per user, replaced when set again', async () => {
      const uid = id();
      expect(await store.passwordHash(uid)).toBeNull();
      await store.setPasswordHash(uid, 'scrypt$first');
      await store.setPasswordHash(uid, 'scrypt$second');
      expect(await other.passwordHash(uid)).toBe('scrypt$second');
      await other.deletePasswordHash(uid);
      expect(await store.passwordHash(uid)).toBeNull();
    });

    describe('refresh families', () => {
      it('rotates the current token; the one it replaced, past the grace, is a stolen copy and ends the family', async () => {
        const [family, uid] = [id(), id()];
        await store.createRefreshFamily(
          family,
          { uid, anonymous: false, tokenHash: 'h1', expiresAt: NOW + HOUR, endsAt: NOW + DAY },
          NOW,
        );
        expect(
          await other.rotateRefreshToken(family, 'h1', { tokenHash: 'h2', expiresAt: NOW + 2 * HOUR }, NOW + 1),
        ).toEqual({
          outcome: 'rotated',
          session: { uid, anonymous: false, expiresAt: NOW + 2 * HOUR },
        });
        const late = NOW + 2 + REFRESH_REUSE_GRACE_MS;
        expect(await store.rotateRefreshToken(family, 'h1', { tokenHash: 'h3', expiresAt: late + HOUR }, late)).toEqual(
          { outcome: 'reused' },
        );
        expect(
          await store.rotateRefreshToken(family, 'h2', { tokenHash: 'h4', expiresAt: late + HOUR }, late + 1),
        ).toEqual({ outcome: 'invalid' });
      });

      it('rotates the replaced token again within the grace, which does not slide', async () => {
        const [family, uid] = [id(), id()];
        await store.createRefreshFamily(
          family,
          { uid, anonymous: false, tokenHash: 'h1', expiresAt: NOW + HOUR, endsAt: NOW + DAY },
          NOW,
        );
        const rotate = (from: string, to: string, at: number) =>
          store.rotateRefreshToken(family, from, { tokenHash: to, expiresAt: at + HOUR }, at);
        expect((await rotate('h1', 'h2', NOW)).outcome).toBe('rotated');
        // The answer carrying h2 never reached the browser: the next page presents h1 again.
        expect(await rotate('h1', 'h3', NOW + REFRESH_REUSE_GRACE_MS)).toEqual({
          outcome: 'rotated',
          session: { uid, anonymous: false, expiresAt: NOW + REFRESH_REUSE_GRACE_MS + HOUR },
        });
        expect((await rotate('h1', 'h4', NOW + REFRESH_REUSE_GRACE_MS + 1)).outcome).toBe('reused');
        expect((await rotate('h3', 'h5', NOW + REFRESH_REUSE_GRACE_MS + 2)).outcome).toBe('invalid');
      });

      it('ends the family for a token the grace replaced', async () => {
        const family = id();
        await store.createRefreshFamily(
          family,
          { uid: id(), anonymous: false, tokenHash: 'h1', expiresAt: NOW + HOUR, endsAt: NOW + DAY },
          NOW,
        );
        const rotate = (from: string, to: string, at: number) =>
          other.rotateRefreshToken(family, from, { tokenHash: to, expiresAt: at + HOUR }, at);
        expect((await rotate('h1', 'h2', NOW)).outcome).toBe('rotated');
        expect((await rotate('h1', 'h3', NOW + 1)).outcome).toBe('rotated');
        expect((await rotate('h2', 'h4', NOW + 2)).outcome).toBe('reused');
        expect((await rotate('h3', 'h5', NOW + 3)).outcome).toBe('invalid');
      });

      it('lets two concurrent rotations with one token through, leaving one of their tokens current', async () => {
        const family = id();
        await store.createRefreshFamily(
          family,
          { uid: id(), anonymous: true, tokenHash: 'h1', expiresAt: NOW + HOUR, endsAt: NOW + DAY },
          NOW,
        );
        const outcomes = await Promise.all([
          store.rotateRefreshToken(family, 'h1', { tokenHash: 'a', expiresAt: NOW + HOUR }, NOW),
          other.rotateRefreshToken(family, 'h1', { tokenHash: 'b', expiresAt: NOW + HOUR }, NOW),
        ]);
        expect(outcomes.map((outcome) => outcome.outcome)).toEqual(['rotated', 'rotated']);
        const next = (from: string, at: number) =>
          store.rotateRefreshToken(family, from, { tokenHash: `${from}+`, expiresAt: NOW + HOUR }, at);
        // Neither 'a' nor 'b' is the token a rotation replaced (h1 is): the one not current is a copy.
        const withA = await next('a', NOW + 1);
        if (withA.outcome === 'rotated') expect((await next('b', NOW + 2)).outcome).toBe('reused');
        else expect(withA.outcome).toBe('reused');
      });

      it('treats an expired family as invalid', async () => {
        const family = id();
        await store.createRefreshFamily(
          family,
          { uid: id(), anonymous: false, tokenHash: 'h1', expiresAt: NOW + HOUR, endsAt: NOW + DAY },
          NOW,
        );
        expect(
          (await store.rotateRefreshToken(family, 'h1', { tokenHash: 'h2', expiresAt: NOW + 3 * HOUR }, NOW + HOUR))
            .outcome,
        ).toBe('invalid');
      });

      it('never extends a family past its end, however often it rotates', async () => {
        const family = id();
        await store.createRefreshFamily(
          family,
          { uid: id(), anonymous: false, tokenHash: 'h0', expiresAt: NOW + HOUR, endsAt: NOW + 3 * HOUR },
          NOW,
        );
        let at = NOW;
        const expiries: number[] = [];
        for (let rotation = 1; rotation <= 4; rotation++) {
          at += 50 * 60_000;
          const outcome = await (rotation % 2 ? other : store).rotateRefreshToken(
            family,
            `h${rotation - 1}`,
            { tokenHash: `h${rotation}`, expiresAt: at + HOUR },
            at,
          );
          expiries.push(outcome.outcome === 'rotated' ? outcome.session.expiresAt : -1);
        }
        // Sliding by an hour each time, until the end three hours after the start; then over.
        expect(expiries).toEqual([NOW + 110 * 60_000, NOW + 160 * 60_000, NOW + 3 * HOUR, -1]);
      });

      it('deletes one family, or ends every session of a user', async () => {
        const [uid, a, b, c] = [id(), id(), id(), id()];
        const session = { uid, anonymous: false, tokenHash: 'h', expiresAt: NOW + HOUR, endsAt: NOW + DAY };
        await store.createRefreshFamily(a, session, NOW);
        await store.createRefreshFamily(b, session, NOW);
        await store.createRefreshFamily(c, { ...session, uid: id() }, NOW);
        await other.deleteRefreshFamily(a);
        expect((await store.rotateRefreshToken(a, 'h', { tokenHash: 'n', expiresAt: NOW + HOUR }, NOW)).outcome).toBe(
          'invalid',
        );
        await other.endSessionsOf(uid, NOW);
        expect((await store.rotateRefreshToken(b, 'h', { tokenHash: 'n', expiresAt: NOW + HOUR }, NOW)).outcome).toBe(
          'invalid',
        );
        expect((await store.rotateRefreshToken(c, 'h', { tokenHash: 'n', expiresAt: NOW + HOUR }, NOW)).outcome).toBe(
          'rotated',
        );
      });

      it('keeps the latest time a user ended their sessions, for every client', async () => {
        const [uid, untouched] = [id(), id()];
        expect(await store.sessionsValidAfter(uid)).toBeNull();
        await store.endSessionsOf(uid, NOW + 5);
        expect(await other.sessionsValidAfter(uid)).toBe(NOW + 5);
        // A slower request that ended them earlier does not reopen what the later one closed.
        await other.endSessionsOf(uid, NOW + 2);
        expect(await store.sessionsValidAfter(uid)).toBe(NOW + 5);
        await other.endSessionsOf(uid, NOW + DAY);
        expect(await store.sessionsValidAfter(uid)).toBe(NOW + DAY);
        expect(await store.sessionsValidAfter(untouched)).toBeNull();
      });
    });

    describe('one-time codes', () => {
      it('hands a code out once, to one of concurrent takers, for its own purpose only', async () => {
        const [code, uid] = [id(), id()];
        await store.addOneTimeCode('google-exchange', code, { uid, expiresAt: NOW + 60_000 }, NOW);
        expect(await store.takeOneTimeCode('password-reset', code, NOW)).toBeNull();
        const taken = await Promise.all([
          store.takeOneTimeCode('google-exchange', code, NOW),
          other.takeOneTimeCode('google-exchange', code, NOW),
        ]);
        expect(taken.filter((found) => found !== null)).toEqual([{ uid, addressHash: null }]);
        expect(await store.takeOneTimeCode('google-exchange', code, NOW)).toBeNull();
      });

      it('refuses an expired code', async () => {
        const code = id();
        await store.addOneTimeCode('password-reset', code, { uid: id(), expiresAt: NOW + HOUR }, NOW);
        expect(await store.findOneTimeCode('password-reset', code, NOW + HOUR)).toBeNull();
        expect(await store.takeOneTimeCode('password-reset', code, NOW + HOUR)).toBeNull();
      });

      it('keeps the hash a link was bound to, and shows the code without spending it until it is taken', async () => {
        const [code, uid] = [id(), id()];
        await store.addOneTimeCode('email-change', code, { uid, expiresAt: NOW + DAY, addressHash: 'bound' }, NOW);
        expect(await store.findOneTimeCode('email-verification', code, NOW)).toBeNull();
        expect(await other.findOneTimeCode('email-change', code, NOW)).toEqual({ uid, addressHash: 'bound' });
        expect(await store.findOneTimeCode('email-change', code, NOW + 1)).toEqual({ uid, addressHash: 'bound' });
        expect(await other.takeOneTimeCode('email-change', code, NOW + 2)).toEqual({ uid, addressHash: 'bound' });
        expect(await store.findOneTimeCode('email-change', code, NOW + 3)).toBeNull();
        expect(await store.takeOneTimeCode('email-change', code, NOW + 3)).toBeNull();
      });

      it("removes every code of one user, whatever its purpose, and nobody else's", async () => {
        const [uid, someoneElse] = [id(), id()];
        const [reset, verification, change, theirs] = [id(), id(), id(), id()];
        await store.addOneTimeCode('password-reset', reset, { uid, expiresAt: NOW + HOUR, addressHash: 'a' }, NOW);
        await store.addOneTimeCode('email-verification', verification, { uid, expiresAt: NOW + DAY }, NOW);
        await other.addOneTimeCode('email-change', change, { uid, expiresAt: NOW + DAY, addressHash: 'b' }, NOW);
        await store.addOneTimeCode('email-change', theirs, { uid: someoneElse, expiresAt: NOW + DAY }, NOW);
        await store.takeOneTimeCode('password-reset', reset, NOW);
        await other.deleteOneTimeCodesOf(uid);
        expect(await store.findOneTimeCode('email-verification', verification, NOW)).toBeNull();
        expect(await store.takeOneTimeCode('email-change', change, NOW)).toBeNull();
        expect(await store.takeOneTimeCode('email-change', theirs, NOW)).toEqual({
          uid: someoneElse,
          addressHash: null,
        });
        // A user without codes, or whose codes are all gone: nothing to do, no error.
        await store.deleteOneTimeCodesOf(uid);
        // New codes after the removal work as any other.
        await store.addOneTimeCode('email-verification', verification, { uid, expiresAt: NOW + DAY }, NOW);
        expect(await other.takeOneTimeCode('email-verification', verification, NOW)).toEqual({
          uid,
          addressHash: null,
        });
      });
    });

    describe('phone verifications', () => {
      it('counts tries up to the limit and hands the verification to one deleter', async () => {
        const verification = { id: id(), phoneKey: id(), codeHash: 'c', expiresAt: NOW + HOUR, tries: 0 };
        await store.addPhoneVerification(verification, NOW);
        const tries = await Promise.all(
          Array.from({ length: 7 }, (_, i) => (i % 2 ? other : store).tryPhoneVerification(verification.id, 5)),
        );
        expect(
          tries
            .filter(Boolean)
            .map((found) => found!.tries)
            .sort(),
        ).toEqual([1, 2, 3, 4, 5]);
        expect(tries.find(Boolean)).toMatchObject({
          phoneKey: verification.phoneKey,
          codeHash: 'c',
          expiresAt: NOW + HOUR,
        });
        expect(await store.tryPhoneVerification(id(), 5)).toBeNull();

        const second = { ...verification, id: id() };
        await store.addPhoneVerification(second, NOW);
        const deleted = await Promise.all([
          store.deletePhoneVerification(second.id),
          other.deletePhoneVerification(second.id),
        ]);
        expect(deleted.sort()).toEqual([false, true]);
        expect(await store.tryPhoneVerification(second.id, 5)).toBeNull();
      });
    });

    describe('identities', () => {
      it('renames phone identities and verifications under way, keeping their users, once', async () => {
        const [uid, someoneElse] = [id(), id()];
        const [renamed, kept, pending] = [id(), id(), id()];
        await store.linkIdentity('phone', renamed, uid);
        await store.linkIdentity('google', renamed, someoneElse);
        await store.linkIdentity('phone', kept, someoneElse);
        const verification = { id: id(), phoneKey: pending, codeHash: 'c', expiresAt: NOW + HOUR, tries: 0 };
        await store.addPhoneVerification(verification, NOW);
        // Every other subject in the store (other tests') is left alone, as keyed ones are by the migration.
        const renames = new Map<string, string>([
          [renamed, `k-${renamed}`],
          [pending, `k-${pending}`],
        ]);
        const rename = (subject: string) => renames.get(subject) ?? null;

        expect(await other.renamePhoneSubjects(rename)).toBe(2);
        expect(await store.findIdentity('phone', renamed)).toBeNull();
        expect(await store.findIdentity('phone', `k-${renamed}`)).toBe(uid);
        expect(await store.findIdentity('google', renamed)).toBe(someoneElse);
        expect(await store.findIdentity('phone', kept)).toBe(someoneElse);
        expect(await store.identitiesOf(uid)).toEqual([{ provider: 'phone', subject: `k-${renamed}` }]);
        expect(await store.tryPhoneVerification(verification.id, 5)).toMatchObject({ phoneKey: `k-${pending}` });
        expect(await store.renamePhoneSubjects(rename)).toBe(0);
        // Closing the account still finds the renamed identity to unlink.
        await store.deleteIdentitiesOf(uid);
        expect(await other.findIdentity('phone', `k-${renamed}`)).toBeNull();
      });

      it("refuses to give a phone identity a subject that is another user's", async () => {
        const [first, second, subject, taken] = [id(), id(), id(), id()];
        await store.linkIdentity('phone', subject, first);
        await store.linkIdentity('phone', taken, second);
        await expect(store.renamePhoneSubjects((found) => (found === subject ? taken : null))).rejects.toThrow(
          /another user's/,
        );
        expect(await other.findIdentity('phone', subject)).toBe(first);
        expect(await other.findIdentity('phone', taken)).toBe(second);
      });

      it('links an identity to the first user that claims it', async () => {
        const [subject, first, second] = [id(), id(), id()];
        expect(await store.findIdentity('google', subject)).toBeNull();
        const linked = await Promise.all([
          store.linkIdentity('google', subject, first),
          other.linkIdentity('google', subject, second),
        ]);
        expect(linked[0]).toBe(linked[1]);
        expect([first, second]).toContain(linked[0]);
        expect(await store.findIdentity('google', subject)).toBe(linked[0]);
        expect(await store.findIdentity('phone', subject)).toBeNull();
      });

      it("lists an account's identities, and unlinks a closed account's, and only its own", async () => {
        const [uid, other_] = [id(), id()];
        const [google, phone, kept] = [id(), id(), id()];
        await store.linkIdentity('google', google, uid);
        await other.linkIdentity('phone', phone, uid);
        await store.linkIdentity('google', kept, other_);
        const linked = await other.identitiesOf(uid);
        expect(linked.sort((a, b) => a.provider.localeCompare(b.provider))).toEqual([
          { provider: 'google', subject: google },
          { provider: 'phone', subject: phone },
        ]);
        await other.deleteIdentitiesOf(uid);
        expect(await store.identitiesOf(uid)).toEqual([]);
        expect(await store.identitiesOf(other_)).toEqual([{ provider: 'google', subject: kept }]);
        expect(await store.findIdentity('google', google)).toBeNull();
        expect(await store.findIdentity('phone', phone)).toBeNull();
        expect(await store.findIdentity('google', kept)).toBe(other_);
        // Free again: the same Google account can make a new one.
        expect(await store.linkIdentity('google', google, id())).not.toBe(uid);
      });
    });

    describe('salts of scan visitors', () => {
      it('gives every client the first salt stored for a day', async () => {
        const day = '2030-01-01';
        const salts = await Promise.all([store.dailySalt(day, 'salt-a', NOW), other.dailySalt(day, 'salt-b', NOW)]);
        expect(salts[0]).toBe(salts[1]);
        expect(['salt-a', 'salt-b']).toContain(salts[0]);
        expect(await other.dailySalt(day, 'salt-c', NOW + HOUR)).toBe(salts[0]);
      });

      it("forgets a day's salt once a later day's is asked for, and keeps no past day's", async () => {
        const first = await store.dailySalt('2030-01-02', id(), NOW + DAY);
        const next = await other.dailySalt('2030-01-03', id(), NOW + 2 * DAY);
        expect(next).not.toBe(first);
        // A late caller still asking for the day before gets a salt for its request, kept by no one.
        expect(await store.dailySalt('2030-01-02', 'late', NOW + 2 * DAY)).toBe('late');
        expect(await other.dailySalt('2030-01-02', 'later', NOW + 2 * DAY)).toBe('later');
        expect(await store.dailySalt('2030-01-03', id(), NOW + 2 * DAY)).toBe(next);
      });
    });

    describe('spent proof-of-work challenges', () => {
      it('lets exactly one of concurrent spenders spend a challenge, on any client, until it expires', async () => {
        const challenge = id();
        const spent = await Promise.all([
          store.spendChallenge(challenge, NOW + HOUR, NOW),
          other.spendChallenge(challenge, NOW + HOUR, NOW),
        ]);
        expect(spent.sort()).toEqual([false, true]);
        expect(await store.spendChallenge(challenge, NOW + HOUR, NOW + HOUR - 1)).toBe(false);
        expect(await other.spendChallenge(id(), NOW + HOUR, NOW)).toBe(true);
      });

      it('clears an expired challenge away', async () => {
        const challenge = id();
        expect(await store.spendChallenge(challenge, NOW + 1_000, NOW)).toBe(true);
        // Past its expiry it is no longer held: the signature's expiry refuses its solution instead.
        expect(await other.spendChallenge(challenge, NOW + 2 * HOUR, NOW + 1_000)).toBe(true);
      });
    });

    describe('personal-data keys', () => {
      const key = () => randomBytes(32);

      it('gives every client the first key stored for a subject', async () => {
        const subject = `user-${id()}`;
        const [a, b] = [key(), key()];
        const keys = await Promise.all([store.personalDataKey(subject, a), other.personalDataKey(subject, b)]);
        expect(keys[0]).toEqual(keys[1]);
        expect([a, b]).toContainEqual(keys[0]);
        expect((await other.personalDataKeys([subject, `user-${id()}`])).get(subject)).toEqual(keys[0]);
      });

      it('erases a key for good: erased once, never found or made again', async () => {
        const [kept, erased, neverKeyed] = [`user-${id()}`, `user-${id()}`, `waitlist-${id()}`];
        await store.personalDataKey(kept, key());
        await store.personalDataKey(erased, key());
        expect(await other.erasePersonalDataKey(erased)).toBe(true);
        expect(await store.erasePersonalDataKey(erased)).toBe(false);
        expect(await store.erasePersonalDataKey(neverKeyed)).toBe(true);
        expect(await other.erasePersonalDataKey(neverKeyed)).toBe(false);
        expect(await store.personalDataKey(erased, key())).toBeNull();
        expect(await store.personalDataKey(neverKeyed, key())).toBeNull();
        expect([...(await other.personalDataKeys([kept, erased, neverKeyed])).keys()]).toEqual([kept]);
        expect(await other.personalDataKeys([])).toEqual(new Map());
      });
    });
  });
}
