import type { GivenEvent } from './api-specification';

/** Histories the specifications start from, in the events' own shapes. */
const at = '2026-03-01T10:00:00.000Z';

export const charityCreated = (charityId: string, name = 'Clean Water'): GivenEvent => ({
  stream: `charity-${charityId}`,
  type: 'CharityCreated',
  data: { charityId, name, mission: 'Water for all.', website_url: 'https://water.example.org', createdBy: null, at },
});

export const shirtAdded = (shirtId: string, name = 'Scan Me Maybe', sizes = ['S', 'M', 'L']): GivenEvent => ({
  stream: `shirt-${shirtId}`,
  type: 'ShirtAdded',
  data: { shirtId, name, description: 'A shirt.', priceCents: 2500, sizes, images: [], at },
});

export const fundraiserCreated = (
  fundraiserId: string,
  { userId = 'owner', charityId = 'water', shirtId = 'scan-me' } = {},
): GivenEvent => ({
  stream: `fundraiser-${fundraiserId}`,
  type: 'FundraiserCreated',
  data: { fundraiserId, userId, charityId, shirtId, name: 'My shirt', at },
});

export const donationRecorded = (
  fundraiserId: string,
  donationId: string,
  amountCents: number,
  idempotencyKey: string | null = null,
): GivenEvent => ({
  stream: `fundraiser-${fundraiserId}`,
  type: 'DonationRecorded',
  data: { fundraiserId, donationId, amountCents, currency: 'USD', source: 'widget', idempotencyKey, at },
});

export const userRegistered = (userId: string, email: string | null = null): GivenEvent => ({
  stream: `user-${userId}`,
  type: 'UserRegistered',
  data: { userId, email, displayName: 'Ada', photoURL: null, method: 'password', at },
});
