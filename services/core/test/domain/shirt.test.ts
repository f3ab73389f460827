import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../src/kit/fold-events';
import { type ShirtFields, shirtDecider } from '../../src/catalogue/shirt-decider';
import { deciderSpec } from './decider-spec';
import { T0, T1, shirtAdded } from './fixtures';

const spec = deciderSpec(shirtDecider);
const { shirtId: _shirtId, at: _at, ...fields } = shirtAdded.data;
const shirtFields: ShirtFields = fields;

describe('shirt decider', () => {
  it('adds a shirt', () => {
    spec.given([]).when({ type: 'AddShirt', shirtId: 'scan-me-maybe', fields: shirtFields, at: T0 }).then([shirtAdded]);
  });

  it('refuses to add a shirt twice', () => {
    spec
      .given([shirtAdded])
      .when({ type: 'AddShirt', shirtId: 'scan-me-maybe', fields: shirtFields, at: T1 })
      .thenFails('conflict', 'Shirt already exists');
  });

  it('refuses sizes that repeat, which would show two identical size buttons', () => {
    spec
      .given([])
      .when({ type: 'AddShirt', shirtId: 's', fields: { ...shirtFields, sizes: ['M', 'M'] }, at: T0 })
      .thenFails('validation', 'sizes must not repeat');
  });

  it('refuses two main images', () => {
    const image = { id: 'a', url: '/a.svg', alt: 'A', isMain: true };
    spec
      .given([])
      .when({
        type: 'AddShirt',
        shirtId: 's',
        fields: { ...shirtFields, images: [image, { ...image, id: 'b' }] },
        at: T0,
      })
      .thenFails('validation', 'at most one image may be the main image');
  });

  it('records only the fields that change', () => {
    spec
      .given([shirtAdded])
      .when({
        type: 'UpdateShirt',
        shirtId: 'scan-me-maybe',
        fields: { sizes: ['S', 'M', 'L'], priceCents: 3499 },
        at: T1,
      })
      .then([{ type: 'ShirtUpdated', data: { shirtId: 'scan-me-maybe', priceCents: 3499, at: T1 } }]);
  });

  it('refuses an update that changes nothing', () => {
    spec
      .given([shirtAdded])
      .when({ type: 'UpdateShirt', shirtId: 'scan-me-maybe', fields: { sizes: ['S', 'M', 'L'] }, at: T1 })
      .thenFails('validation', 'No shirt field changes');
  });

  it('refuses to update a shirt that does not exist', () => {
    spec
      .given([])
      .when({ type: 'UpdateShirt', shirtId: 'nope', fields: { name: 'Nope' }, at: T1 })
      .thenFails('not_found', 'Shirt not found');
  });

  it('exposes the current name and sizes', () => {
    const state = foldEvents(shirtDecider, [
      shirtAdded,
      { type: 'ShirtUpdated', data: { shirtId: 'scan-me-maybe', sizes: ['M', 'XL'], at: T1 } },
    ]);
    expect(state).toMatchObject({
      shirtId: 'scan-me-maybe',
      name: 'Scan Me Maybe',
      sizes: ['M', 'XL'],
      addedAt: T0,
      updatedAt: T1,
    });
  });
});
