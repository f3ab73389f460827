import type { Projector } from '../kit/projector';
import { hsetFields } from '../kit/hash-fields';

export const catalogKeys = {
  shirts: 'shirts',
  shirt: (id: string) => `shirt:${id}`,
  charities: 'charities',
  charity: (id: string) => `charity:${id}`,
};

/**
 * Shirts and charities as the shop lists them; `seq` keeps the order they were added in. Every
 * charity is in the charities set with its review `status` (a hash without one was projected
 * before reviews, when every charity was in the shop): the queries show approved ones to the shop
 * and the others to admins.
 */
export const catalogProjector: Projector = {
  name: 'catalog',
  eventTypes: ['ShirtAdded', 'ShirtUpdated', 'CharityCreated', 'CharityUpdated', 'CharityApproved', 'CharityRejected'],
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
        const { charityId, at, ...fields } = event.data;
        return [
          { op: 'sadd', key: catalogKeys.charities, member: charityId },
          ...hsetFields(catalogKeys.charity(charityId), {
            id: charityId,
            ...fields,
            createdAt: at,
            seq: globalPosition,
          }),
        ];
      }
      case 'CharityUpdated': {
        const { charityId, at: _at, ...fields } = event.data;
        return hsetFields(catalogKeys.charity(charityId), fields);
      }
      case 'CharityApproved':
        // A hash holds no "absent": null stands for "no reason" once approved.
        return hsetFields(catalogKeys.charity(event.data.charityId), { status: 'approved', rejectionReason: null });
      case 'CharityRejected':
        return hsetFields(catalogKeys.charity(event.data.charityId), {
          status: 'rejected',
          rejectionReason: event.data.reason,
        });
      default:
        return [];
    }
  },
};
