import type { EventOf } from '@qrshirt/contracts';
import { type CharityState, charityDecider } from '../../src/catalogue/charity-decider';
import type { ReportDonation } from '../../src/donations/donation-report-decider';
import { foldEvents } from '../../src/kit/fold-events';
import { createLookupKeys } from '../../src/kit/lookup-keys';
import { type ShirtState, shirtDecider } from '../../src/catalogue/shirt-decider';

export const T0 = '2025-03-01T10:00:00.000Z';
export const T1 = '2025-03-01T11:00:00.000Z';

/** Lookup keys under a secret of the tests' own. */
export const lookupKeys = createLookupKeys('tests-lookup-key-secret-'.padEnd(40, 'x'));

export const charityCreated: EventOf<'CharityCreated'> = {
  type: 'CharityCreated',
  data: {
    charityId: 'givedirectly',
    name: 'GiveDirectly',
    mission: 'Sends cash directly to people living in poverty.',
    website_url: 'https://www.givedirectly.org',
    logo_url: '/images/charities/givedirectly.svg',
    createdBy: 'user-1',
    status: 'approved',
    at: T0,
  },
};

export const shirtAdded: EventOf<'ShirtAdded'> = {
  type: 'ShirtAdded',
  data: {
    shirtId: 'scan-me-maybe',
    name: 'Scan Me Maybe',
    description: 'Hey, I just met you.',
    priceCents: 2999,
    category: 'Classics',
    sizes: ['S', 'M', 'L'],
    tags: ['pop'],
    images: [{ id: 'front', url: '/images/shirts/scan-me-maybe-1.svg', alt: 'Front', isMain: true }],
    at: T0,
  },
};

export const charity: CharityState = foldEvents(charityDecider, [charityCreated])!;
export const shirt: ShirtState = foldEvents(shirtDecider, [shirtAdded])!;

/** The page's report of a donation to fundraiser f-1, as POST /donate sends it. */
export const reportDonation = (amount: unknown, idempotencyKey: string | null = null): ReportDonation => ({
  type: 'ReportDonation',
  reportId: 'r-1',
  fundraiserId: 'f-1',
  amount,
  idempotencyKey,
  source: 'widget',
  needsCheckout: false,
  at: T1,
});
