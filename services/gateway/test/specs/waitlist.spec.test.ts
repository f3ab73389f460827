import { createHash } from 'node:crypto';
import { addressRecordsStreamName, confirmationTokenFor, waitlistSignupStreamName } from '@qrshirt/core';
import { describe, expect, it } from 'vitest';
import { apiSpecificationPerTest, type GivenEvent, lookupKeys } from '../support/api-specification';
import { charityCreated, shirtAdded } from '../support/given';

const api = apiSpecificationPerTest();

const catalogue = [charityCreated('water'), shirtAdded('scan-me', 'Scan Me Maybe', ['S', 'M'])];
const join = {
  shirtId: 'scan-me',
  selectedSize: 'M',
  selectedCharity: 'water',
  name: 'Ada',
  email: 'ada@example.org',
};

describe('POST /api/waitlist', () => {
  it('puts the person on the shirt’s waitlist, and counts them', async () => {
    await api
      .given(...catalogue)
      .when('POST', '/api/waitlist', { body: join })
      .then({
        status: 201,
        body: { success: true, message: "You're on the waitlist for Scan Me Maybe!", data: { selectedSize: 'M' } },
        events: [
          {
            // First, where the person's account will find it: under the address's lookup key.
            stream: addressRecordsStreamName(lookupKeys, join.email),
            type: 'AddressRecordNoted',
            data: {
              kind: 'waitlist-signup',
              stream: waitlistSignupStreamName(lookupKeys, 'scan-me', { ...join, size: 'M', charityId: 'water' }),
            },
          },
          {
            // Named by the signup's lookup key: no address, nor its unkeyed hash.
            stream: waitlistSignupStreamName(lookupKeys, 'scan-me', { ...join, size: 'M', charityId: 'water' }),
            type: 'WaitlistJoined',
            data: { size: 'M', charityId: 'water' },
          },
        ],
      });
    await api
      .given()
      .when('GET', '/api/waitlist')
      .then({ status: 200, body: { total: 1, byShirtAndSize: { 'scan-me': { M: 1 } } } });
  });

  it('answers a repeated signup with the first entry, recording nothing new', async () => {
    const first = await api
      .given(...catalogue)
      .when('POST', '/api/waitlist', { body: join })
      .then({ status: 201 });
    await api
      .given()
      .when('POST', '/api/waitlist', { body: { ...join, email: 'ADA@example.org' } })
      .then({ status: 201, body: { data: { id: first.answer.body.data.id } }, events: [] });
  });

  it('refuses a size the shirt does not come in, and an unknown shirt', async () => {
    await api
      .given(...catalogue)
      .when('POST', '/api/waitlist', { body: { ...join, selectedSize: 'XXL' } })
      .then({ status: 400, events: [] });
    await api
      .given()
      .when('POST', '/api/waitlist', { body: { ...join, shirtId: 'nope' } })
      .then({ status: 404, events: [] });
  });

  it('recognises a signup that old logs keep on the shirt’s one list, and adds new ones', async () => {
    // Before each signup had its own stream, the shirt's whole list was `waitlist-<shirtId>`.
    const oldEntry = (entryId: string, email: string): GivenEvent => ({
      stream: 'waitlist-scan-me',
      type: 'WaitlistJoined',
      data: {
        entryId,
        shirtId: 'scan-me',
        name: 'Ada',
        email,
        size: 'M',
        charityId: 'water',
        at: '2025-01-01T00:00:00.000Z',
      },
    });
    await api
      .given(...catalogue, oldEntry('old-1', 'bo@example.org'), oldEntry('old-2', 'ada@example.org'))
      .when('POST', '/api/waitlist', { body: { ...join, email: ' Ada@Example.org' } })
      .then({ status: 201, body: { data: { id: 'old-2' } }, events: [] });
    await api
      .given()
      .when('POST', '/api/waitlist', { body: { ...join, email: 'cy@example.org' } })
      .then({
        status: 201,
        events: [
          { type: 'AddressRecordNoted', data: { kind: 'waitlist-signup' } },
          { type: 'WaitlistJoined', data: { email: 'cy@example.org' } },
        ],
      });
    // The counts and the admin's list read old and new entries alike.
    await api
      .given()
      .when('GET', '/api/waitlist')
      .then({ status: 200, body: { total: 3 } });
  });
});

describe('POST /api/waitlist/remove', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  // The stream a signup of join's address, size and charity has: joining again after removal meets it.
  const signupStream = waitlistSignupStreamName(lookupKeys, 'scan-me', {
    email: join.email,
    size: 'M',
    charityId: 'water',
  });
  // A signup's mails carry `<shirtId>.<key>.<secret>`, a claim mail `<entryId>.<secret>`.
  const fromJoinMail = confirmationTokenFor(signupStream, 'secret-of-the-join-mail');
  const fromClaimMail = 'e1.secret-of-the-claim-mail';
  const confirmLink = confirmationTokenFor(signupStream, 'secret-of-the-confirmation');
  const entry = {
    entryId: 'e1',
    shirtId: 'scan-me',
    size: 'M',
    charityId: 'water',
    name: 'Ada',
    email: 'ada@example.org',
  };
  const history: GivenEvent[] = [
    ...catalogue,
    {
      stream: signupStream,
      type: 'WaitlistJoined',
      data: {
        ...entry,
        confirmTokenHash: sha256(confirmLink),
        removeTokenHash: sha256(fromJoinMail),
        at: '2026-03-01T10:00:00.000Z',
      },
    },
    { stream: signupStream, type: 'WaitlistEntryConfirmed', data: { entryId: 'e1', at: '2026-03-01T10:05:00.000Z' } },
    {
      stream: 'fulfilment-e1',
      type: 'WaitlistEntryFulfilled',
      data: {
        ...entry,
        fundraiserId: 'ada-shirt',
        claimTokenHash: sha256('e1.claim'),
        claimExpiresAt: '2026-03-31T10:00:00.000Z',
        removeTokenHash: sha256(fromClaimMail),
        at: '2026-03-02T10:00:00.000Z',
      },
    },
  ];

  it('removes the entry once, with the removal link of any of its mails', async () => {
    await api
      .given(...history)
      .when('POST', '/api/waitlist/remove', { body: { token: fromClaimMail } })
      .then({
        status: 200,
        body: { removed: true },
        events: [{ stream: 'waitlist-removal-e1', type: 'WaitlistEntryRemoved', data: { entryId: 'e1' } }],
      });
    await api
      .given()
      .when('POST', '/api/waitlist/remove', { body: { token: fromJoinMail } })
      .then({ status: 404, body: { error: 'This waitlist entry has been removed already' }, events: [] });
    await api
      .given()
      .when('POST', '/api/waitlist/confirm', { body: { token: confirmLink } })
      .then({ status: 410, events: [] });
  });

  it('refuses a token none of its mails carried, recording nothing', async () => {
    const invalid = 'This removal link is not valid: open the link from the email exactly as it came';
    for (const token of [confirmLink, `${fromJoinMail}x`, 'e1.forged', 'e2.secret', 'no-dots', 'a.b.c.d']) {
      await api
        .given(...(token === confirmLink ? history : []))
        .when('POST', '/api/waitlist/remove', { body: { token } })
        .then({ status: 404, body: { error: invalid }, events: [] });
    }
    await api
      .given()
      .when('POST', '/api/waitlist/remove', { body: { token: ' ' } })
      .then({ status: 400, events: [] });
  });

  it('joins anew after the entry was removed: a new entry, asked to confirm again', async () => {
    await api
      .given(...history)
      .when('POST', '/api/waitlist/remove', { body: { token: fromJoinMail } })
      .then({ status: 200 });
    const removedId = 'e1';
    const again = await api
      .given()
      .when('POST', '/api/waitlist', { body: join })
      .then({
        status: 201,
        events: [
          { type: 'AddressRecordNoted', data: { kind: 'waitlist-signup', stream: signupStream } },
          { stream: signupStream, type: 'WaitlistJoined', data: { size: 'M' } },
        ],
      });
    expect(again.answer.body.data.id).not.toBe(removedId);
  });
});
