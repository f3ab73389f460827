import { describe, it } from 'vitest';
import { apiSpecificationPerTest } from '../support/api-specification';
import { charityCreated, shirtAdded } from '../support/given';
import { anonymousToken, userToken } from '../support/test-server';

const api = apiSpecificationPerTest();

describe('the catalogue', () => {
  it('lists the charities and shirts of the history, in the order they were added', async () => {
    await api
      .given(charityCreated('water', 'Clean Water'), charityCreated('bees', 'Bees Please'))
      .when('GET', '/api/charities')
      .then({
        status: 200,
        body: [
          { id: 'water', name: 'Clean Water' },
          { id: 'bees', name: 'Bees Please' },
        ],
      });
    await api
      .given(shirtAdded('scan-me', 'Scan Me Maybe'))
      .when('GET', '/api/shirt/scan-me')
      .then({ status: 200, body: { id: 'scan-me', name: 'Scan Me Maybe', price: 25, sizes: ['S', 'M', 'L'] } });
  });

  it('answers 404 for an unknown shirt or charity', async () => {
    await api
      .given()
      .when('GET', '/api/shirt/nope')
      .then({ status: 404, body: { error: 'Shirt not found' } });
    await api
      .given()
      .when('GET', '/api/charity/nope')
      .then({ status: 404, body: { error: 'Charity not found' } });
  });
});

describe('POST /api/charity', () => {
  it('records a member’s charity as theirs', async () => {
    const body = { name: 'Bees Please', mission: 'Keeps bees.', website_url: 'https://bees.example.org' };
    await api
      .given()
      .when('POST', '/api/charity', { token: userToken('ada'), body })
      .then({
        status: 201,
        body,
        events: [{ type: 'CharityCreated', data: { ...body, createdBy: 'ada' } }],
      });
  });

  it('needs an account', async () => {
    const body = { name: 'Bees Please', mission: 'Keeps bees.', website_url: 'https://bees.example.org' };
    await api
      .given()
      .when('POST', '/api/charity', { token: anonymousToken('visitor'), body })
      .then({ status: 403, events: [] });
    await api.given().when('POST', '/api/charity', { body }).then({ status: 401, events: [] });
  });
});
