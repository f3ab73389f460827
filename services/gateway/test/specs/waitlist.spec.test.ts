import { afterEach, beforeEach, describe, it } from 'vitest';
import { type ApiSpecification, apiSpecification } from '../support/api-specification';
import { charityCreated, shirtAdded } from '../support/given';

let api: ApiSpecification;
beforeEach(async () => {
  api = await apiSpecification();
});
afterEach(() => api.close());

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
        events: [{ stream: 'waitlist-scan-me', type: 'WaitlistJoined', data: { size: 'M', charityId: 'water' } }],
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
});
