import { describe, expect, it } from 'vitest';
import { apiSpecificationPerTest } from '../support/api-specification';
import type { GivenEvent } from '../support/api-specification';
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
            stream: expect.stringMatching(/^waitlist-scan-me\.[0-9a-f]{64}$/),
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
      .then({ status: 201, events: [{ type: 'WaitlistJoined', data: { email: 'cy@example.org' } }] });
    // The counts and the admin's list read old and new entries alike.
    await api
      .given()
      .when('GET', '/api/waitlist')
      .then({ status: 200, body: { total: 3 } });
  });
});
