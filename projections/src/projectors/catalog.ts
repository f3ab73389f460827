import type { Projector } from './projector';
import { hsetFields } from './hash-fields';

export const catalogKeys = {
  shirts: 'shirts',
  shirt: (id: string) => `shirt:${id}`,
  charities: 'charities',
  charity: (id: string) => `charity:${id}`,
};

/** Shirts and charities as the shop lists them; `seq` keeps the order they were added in. */
export const catalogProjector: Projector = {
  name: 'catalog',
  eventTypes: ['ShirtAdded', 'ShirtUpdated', 'CharityCreated', 'CharityUpdated'],
  project(event, { globalPosition }) {
    switch (event.type) {
      case 'ShirtAdded': {
        const { shirtId, at: _at, ...fields } = event.data;
        return [
          { op: 'sadd', key: catalogKeys.shirts, member: shirtId },
          ...hsetFields(catalogKeys.shirt(shirtId), { id: shirtId, ...fields, seq: globalPosition }),
        ];
      }
      case 'ShirtUpdated': {
        const { shirtId, at: _at, ...fields } = event.data;
        return hsetFields(catalogKeys.shirt(shirtId), fields);
      }
      case 'CharityCreated': {
        const { charityId, at: _at, createdBy: _createdBy, ...fields } = event.data;
        return [
          { op: 'sadd', key: catalogKeys.charities, member: charityId },
          ...hsetFields(catalogKeys.charity(charityId), { id: charityId, ...fields, seq: globalPosition }),
        ];
      }
      case 'CharityUpdated': {
        const { charityId, at: _at, ...fields } = event.data;
        return hsetFields(catalogKeys.charity(charityId), fields);
      }
      default:
        return [];
    }
  },
};
