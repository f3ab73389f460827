import { describe, expect, it } from 'vitest';
import { type CharityFields, charityDecider, charityStreamName } from '../../src/charities/charity-decider';
import { foldEvents } from '../../src/event-sourcing/fold-events';
import { deciderSpec } from './decider-spec';
import { T0, T1, charityCreated } from './fixtures';

const spec = deciderSpec(charityDecider);
const fields: CharityFields = {
  name: 'GiveDirectly',
  mission: 'Sends cash directly to people living in poverty.',
  website_url: 'https://www.givedirectly.org',
  logo_url: '/images/charities/givedirectly.svg',
};

describe('charity decider', () => {
  it('creates a charity', () => {
    spec
      .given([])
      .when({ type: 'CreateCharity', charityId: 'givedirectly', fields, createdBy: 'user-1', at: T0 })
      .then([charityCreated]);
  });

  it('refuses to create a charity twice', () => {
    spec
      .given([charityCreated])
      .when({ type: 'CreateCharity', charityId: 'givedirectly', fields, createdBy: 'user-2', at: T1 })
      .thenFails('conflict', 'Charity already exists');
  });

  it('records only the fields that change', () => {
    spec
      .given([charityCreated])
      .when({
        type: 'UpdateCharity',
        charityId: 'givedirectly',
        fields: { name: 'GiveDirectly', mission: 'Cash, directly.' },
        at: T1,
      })
      .then([{ type: 'CharityUpdated', data: { charityId: 'givedirectly', mission: 'Cash, directly.', at: T1 } }]);
  });

  it('refuses an update that changes nothing', () => {
    spec
      .given([charityCreated])
      .when({ type: 'UpdateCharity', charityId: 'givedirectly', fields: { name: 'GiveDirectly' }, at: T1 })
      .thenFails('validation', 'No charity field changes');
  });

  it('refuses to update a charity that does not exist', () => {
    spec
      .given([])
      .when({ type: 'UpdateCharity', charityId: 'nope', fields: { name: 'Nope' }, at: T1 })
      .thenFails('not_found', 'Charity not found');
  });

  it('folds creation and updates into the current charity', () => {
    const state = foldEvents(charityDecider, [
      charityCreated,
      { type: 'CharityUpdated', data: { charityId: 'givedirectly', mission: 'Cash, directly.', at: T1 } },
    ]);
    expect(state).toEqual({
      ...fields,
      mission: 'Cash, directly.',
      charityId: 'givedirectly',
      createdBy: 'user-1',
      createdAt: T0,
      updatedAt: T1,
    });
  });

  it('names its stream after the charity', () => {
    expect(charityStreamName('givedirectly')).toBe('charity-givedirectly');
  });
});
