import type { GivenEvent } from './api-specification';

/** Histories the specifications start from, in the events' own shapes. */
const at = '2026-03-01T10:00:00.000Z';

export const charityCreated = (
  charityId: string,
  name = 'Clean Water',
  { status = 'approved', createdBy = null }: { status?: 'pending' | 'approved'; createdBy?: string | null } = {},
): GivenEvent => ({
  stream: `charity-${charityId}`,
  type: 'CharityCreated',
  data: {
    charityId,
    name,
    mission: 'Water for all.',
    website_url: 'https://water.example.org',
    createdBy,
    status,
    at,
  },
});

/** As logs from before charities were reviewed hold it: schema version 1, no status. */
export const charityCreatedV1 = (charityId: string, name = 'Clean Water'): GivenEvent => ({
  stream: `charity-${charityId}`,
  type: 'CharityCreated',
  schemaVersion: 1,
  data: { charityId, name, mission: 'Water for all.', website_url: 'https://water.example.org', createdBy: 'ada', at },
});

export const charityApproved = (charityId: string, approvedBy = 'olga'): GivenEvent => ({
  stream: `charity-${charityId}`,
  type: 'CharityApproved',
  data: { charityId, approvedBy, at },
});

export const charityRejected = (charityId: string, reason = 'Not a registered charity.'): GivenEvent => ({
  stream: `charity-${charityId}`,
  type: 'CharityRejected',
  data: { charityId, rejectedBy: 'olga', reason, at },
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

/** A donation as logs written before processor confirmations hold it: it counts as confirmed. */
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

export const donationReported = (
  fundraiserId: string,
  reportId: string,
  amountCents: number,
  { idempotencyKey = null, confirmedBy = null }: { idempotencyKey?: string | null; confirmedBy?: string | null } = {},
): GivenEvent => ({
  stream: `donation-report-${reportId}`,
  type: 'DonationReported',
  data: { reportId, fundraiserId, amountCents, currency: 'USD', source: 'widget', idempotencyKey, confirmedBy, at },
});

export const donationConfirmed = (
  fundraiserId: string,
  donationId: string,
  amountCents: number,
  reportId: string | null = null,
): GivenEvent => ({
  stream: `processor-donation-${donationId}`,
  type: 'DonationConfirmed',
  data: { donationId, fundraiserId, amountCents, currency: 'USD', reportId, at },
});

export const donationReportConfirmed = (
  fundraiserId: string,
  reportId: string,
  donationId: string,
  pendingCents: number,
): GivenEvent => ({
  stream: `donation-report-${reportId}`,
  type: 'DonationReportConfirmed',
  data: { reportId, fundraiserId, donationId, pendingCents, at },
});

export const userRegistered = (userId: string, email: string | null = null): GivenEvent => ({
  stream: `user-${userId}`,
  type: 'UserRegistered',
  data: { userId, email, displayName: 'Ada', photoURL: null, method: 'password', at },
});

/** A scan as stored before scans were counted (schema version 1: no hashes, no decision). */
export const scanRecordedBeforeCounting = (fundraiserId: string, scanId: string): GivenEvent => ({
  stream: 'scans-p0',
  type: 'ScanRecorded',
  data: { scanId, fundraiserId, at },
  schemaVersion: 1,
});
