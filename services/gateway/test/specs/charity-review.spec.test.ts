import { describe, expect, it } from 'vitest';
import { apiSpecificationPerTest } from '../support/api-specification';
import { charityApproved, charityCreated, charityCreatedV1, charityRejected, shirtAdded } from '../support/given';
import { shortCodeEvents } from '../support/short-codes';
import { anonymousToken, userToken } from '../support/test-server';

const api = apiSpecificationPerTest();

/** Submitted by the member `ada`, waiting for review. */
const pending = charityCreated('bees', 'Bees Please', { status: 'pending', createdBy: 'ada' });
const join = { shirtId: 'scan-me', selectedSize: 'M', selectedCharity: 'bees', name: 'Bo', email: 'bo@example.org' };

describe('a charity waiting for review', () => {
  it('is in no public list, and unknown to anyone but its submitter', async () => {
    await api
      .given(charityCreated('water'), pending)
      .when('GET', '/api/charities')
      .then({ status: 200, body: [{ id: 'water' }] });
    await api
      .given()
      .when('GET', '/api/charity/bees')
      .then({ status: 404, body: { error: 'Charity not found' } });
    await api
      .given()
      .when('GET', '/api/charity/bees', { token: userToken('someone-else') })
      .then({ status: 404, body: { error: 'Charity not found' } });
    // An anonymous session with the submitter's uid is not the submitter's account.
    await api
      .given()
      .when('GET', '/api/charity/bees', { token: anonymousToken('ada'), headers: { 'x-anonymous': 'true' } })
      .then({ status: 404 });
  });

  it('shows its submitter where it stands', async () => {
    await api
      .given(pending)
      .when('GET', '/api/charity/bees', { token: userToken('ada') })
      .then({ status: 200, body: { id: 'bees', name: 'Bees Please', status: 'pending' } });
  });

  it('is refused by fundraiser creation and the waitlist, as an unknown charity', async () => {
    await api
      .given(pending, shirtAdded('scan-me'))
      .when('POST', '/api/fundraisers', { token: userToken('ada'), body: { charityId: 'bees', shirtId: 'scan-me' } })
      .then({ status: 404, body: { error: 'Charity not found' }, events: [] });
    await api
      .given()
      .when('POST', '/api/waitlist', { body: join })
      .then({ status: 404, body: { error: 'Charity not found' }, events: [] });
  });

  it('is listed and supported once approved', async () => {
    await api
      .given(charityCreated('water'), pending, charityApproved('bees'), shirtAdded('scan-me'))
      .when('GET', '/api/charities')
      .then({ status: 200, body: [{ id: 'water' }, { id: 'bees', name: 'Bees Please' }] });
    await api
      .given()
      .when('GET', '/api/charity/bees')
      .then({ status: 200, body: { id: 'bees', status: 'approved' } });
    await api
      .given()
      .when('POST', '/api/waitlist', { body: join })
      .then({
        status: 201,
        events: [
          { type: 'AddressRecordNoted', data: { kind: 'waitlist-signup' } },
          { type: 'WaitlistJoined', data: { charityId: 'bees' } },
        ],
      });
    await api
      .given()
      .when('POST', '/api/fundraisers', { token: userToken('ada'), body: { charityId: 'bees', shirtId: 'scan-me' } })
      .then({
        status: 201,
        events: [{ type: 'FundraiserCreated', data: { charityId: 'bees' } }, ...shortCodeEvents()],
      });
  });

  it('stays hidden once rejected; its submitter sees the reason', async () => {
    await api
      .given(pending, charityRejected('bees', 'We could not find it in any register.'), shirtAdded('scan-me'))
      .when('GET', '/api/charities')
      .then({ status: 200, body: [] });
    await api.given().when('GET', '/api/charity/bees').then({ status: 404 });
    await api
      .given()
      .when('GET', '/api/charity/bees', { token: userToken('ada') })
      .then({
        status: 200,
        body: { status: 'rejected', rejectionReason: 'We could not find it in any register.' },
      });
    await api.given().when('POST', '/api/waitlist', { body: join }).then({ status: 404, events: [] });
  });
});

describe('charities of old logs', () => {
  it('reads a member’s charity created before reviews (no status) as approved', async () => {
    await api
      .given(charityCreatedV1('bees', 'Bees Please'), shirtAdded('scan-me'))
      .when('GET', '/api/charities')
      .then({ status: 200, body: [{ id: 'bees', name: 'Bees Please' }] });
    await api.given().when('POST', '/api/waitlist', { body: join }).then({ status: 201 });
  });
});

describe('POST /api/charity', () => {
  const body = { name: 'Bees Please', mission: 'Keeps bees.', website_url: 'https://bees.example.org' };

  it('records the member’s charity as pending, and says so', async () => {
    await api
      .given()
      .when('POST', '/api/charity', { token: userToken('ada'), body })
      .then({
        status: 201,
        body: { ...body, status: 'pending' },
        events: [{ type: 'CharityCreated', data: { ...body, createdBy: 'ada', status: 'pending' } }],
      });
  });

  it.each([
    ['http:', { website_url: 'http://bees.example.org' }, 'website_url must be an https:// address'],
    ['javascript:', { website_url: 'javascript:alert(1)' }, 'website_url must be an https:// address'],
    ['data:', { website_url: 'data:text/html,<script>alert(1)</script>' }, 'website_url must be an https:// address'],
    ['a user part that hides the host', { website_url: 'https://bees.example.org@evil.example' }, 'website_url'],
    [
      'an http: logo',
      { logo_url: 'http://bees.example.org/logo.png' },
      'logo_url must be an https:// address or a path on this site starting with /',
    ],
    ['a javascript: logo', { logo_url: 'javascript:alert(1)' }, 'logo_url must be an https://'],
    ['a data: logo', { logo_url: 'data:image/svg+xml;base64,PHN2Zz4=' }, 'logo_url must be an https://'],
    ['a //host logo', { logo_url: '//evil.example/logo.png' }, 'logo_url must be an https://'],
    ['a /\\host logo', { logo_url: '/\\evil.example/logo.png' }, 'logo_url must be an https://'],
  ])('refuses %s with 400, recording nothing', async (_what, links, error) => {
    await api
      .given()
      .when('POST', '/api/charity', { token: userToken('ada'), body: { ...body, ...links } })
      .then({ status: 400, body: { error: expect.stringContaining(error) }, events: [] });
  });

  it.each([
    ['an https logo', 'https://cdn.example.org/bees.svg'],
    ['a logo on this site', '/images/charities/givedirectly.svg'],
  ])('accepts %s', async (_what, logo_url) => {
    await api
      .given()
      .when('POST', '/api/charity', { token: userToken('ada'), body: { ...body, logo_url: ` ${logo_url} ` } })
      .then({ status: 201, body: { logo_url, status: 'pending' } });
  });
});
