import type { Projector } from '../kit/projector';

export const waitlistKeys = {
  totals: 'totals',
  byShirt: 'by-shirt',
  bySize: 'by-size',
  byCharity: 'by-charity',
  sizesOfShirt: (shirtId: string) => `sizes:${shirtId}`,
};

/** Counts only: the waitlist's names and emails never reach this read model. */
export const waitlistProjector: Projector = {
  name: 'waitlist',
  eventTypes: ['WaitlistJoined'],
  project(event) {
    if (event.type !== 'WaitlistJoined') return [];
    const { shirtId, size, charityId } = event.data;
    return [
      { op: 'hincrby', key: waitlistKeys.totals, field: 'total', by: 1 },
      { op: 'hincrby', key: waitlistKeys.byShirt, field: shirtId, by: 1 },
      { op: 'hincrby', key: waitlistKeys.bySize, field: size, by: 1 },
      { op: 'hincrby', key: waitlistKeys.byCharity, field: charityId, by: 1 },
      { op: 'hincrby', key: waitlistKeys.sizesOfShirt(shirtId), field: size, by: 1 },
    ];
  },
};
