import { z } from 'zod';
import { defineEvent, isoInstant, isoInstantPattern } from './define-event';

/**
 * Version 2: `userId` is null for a fundraiser an operator made for a waitlist entry, owned by
 * nobody until the person it was made for claims it (`FundraiserClaimed`); `entryId` (absent
 * otherwise) names that entry. Version 1 was always owned by its creator and made for no entry.
 */
export const FundraiserCreated = defineEvent(
  'FundraiserCreated',
  z.object({
    fundraiserId: z.string().min(1),
    userId: z.string().min(1).nullable(),
    charityId: z.string().min(1),
    shirtId: z.string().min(1),
    name: z.string().min(1),
    entryId: z.string().min(1).optional(),
    at: isoInstant,
  }),
  {
    version: 2,
    // Every version 1 event is valid as version 2 (an owner, no entry): nothing to lift.
    upcasters: { 1: (data) => data },
  },
);

/**
 * The person a waitlist entry's fundraiser was made for took it with the mailed link: from now on
 * it is theirs, with every scan and donation it had before.
 */
export const FundraiserClaimed = defineEvent(
  'FundraiserClaimed',
  z.object({
    fundraiserId: z.string().min(1),
    userId: z.string().min(1),
    entryId: z.string().min(1),
    at: isoInstant,
  }),
);

/**
 * The code of the fundraiser's short link (`/q/<code>`), which its QR code encodes. Appended once,
 * after `ShortCodeReserved` made the code this fundraiser's: when it is created, and for a
 * fundraiser made before short codes the first time its QR code is drawn.
 */
export const FundraiserShortCodeAssigned = defineEvent(
  'FundraiserShortCodeAssigned',
  z.object({ fundraiserId: z.string().min(1), code: z.string().min(1), at: isoInstant }),
);

/**
 * Appended to `short-code-<code>` with expected revision "no stream": one fundraiser per code. A
 * reservation whose fundraiser never got the code (its process stopped in between) is taken up
 * by that fundraiser the next time, since its candidate codes are always the same.
 */
export const ShortCodeReserved = defineEvent(
  'ShortCodeReserved',
  z.object({ code: z.string().min(1), fundraiserId: z.string().min(1), at: isoInstant }),
);

/**
 * No longer written: until donations were confirmed by the processor, POST /donate appended this
 * to the fundraiser's stream and it counted as raised at once. Logs written then still hold it, and
 * every reader (projectors, replay) counts it as a **confirmed** donation, never as a mere report:
 * - it is what those owners were shown as raised, what the admin overview and every replay export
 *   added up, and what `replay-donations --as-of` must still reproduce for a day before the change;
 *   reading it as "awaiting confirmation" would silently take money off every existing total;
 * - no processor existed then to confirm anything, so no confirmation will ever come for it: as a
 *   report it would await forever;
 * - the repository's own histories (seeded test logs, the replay benchmark, the given-events
 *   specifications) count it as raised, which is what users of today's data expect.
 * A retry of such a keyed report after the upgrade is recorded as a new report: it can only move
 * the figure awaiting confirmation, never a confirmed one.
 */
export const DonationRecorded = defineEvent(
  'DonationRecorded',
  z.object({
    fundraiserId: z.string().min(1),
    donationId: z.string().min(1),
    amountCents: z.number().int().positive(),
    currency: z.literal('USD'),
    source: z.string().min(1),
    /** The client's Idempotency-Key, when it sent one: a retry with it records nothing new. */
    idempotencyKey: z.string().min(1).nullable(),
    at: isoInstant,
  }),
);

/** A keyed hash (base64url), made with a salt of one UTC day that is deleted after it. */
const dailyHash = z.string().min(1).max(64);

/**
 * A scan request as the gateway accepted it: what it produces to Kafka (`scans.v1`) or hands to
 * the embedded batcher. No address and no lasting visitor id: `visitorHash` is a keyed hash of the
 * client's address, its user agent and the fundraiser under the day's salt, `addressHash` the same
 * without the user agent (for the per-address limit); the salt is forgotten after the day, so
 * neither links a person across days. Both are null in messages from gateways older than
 * counting, which are counted as they were.
 */
export const scanRequest = z.object({
  scanId: z.string().min(1),
  fundraiserId: z.string().min(1),
  at: isoInstant,
  visitorHash: dailyHash.nullable().default(null),
  addressHash: dailyHash.nullable().default(null),
  /** The user agent is a robot or a link previewer (isbot): stored, never counted. */
  bot: z.boolean().default(false),
});
export type ScanRequest = z.output<typeof scanRequest>;

/**
 * Every accepted scan request, written by the ingestor (or the embedded batcher) to
 * `scans-p<partition>`, which decided whether it `counted` (see scan-counting.ts in core).
 * Version 1 (before counting) had neither hashes nor a decision: every one of them counted.
 */
export const ScanRecorded = defineEvent('ScanRecorded', scanRequest.extend({ counted: z.boolean() }), {
  version: 2,
  upcasters: {
    // Object.assign, not a spread: V8 spreads an object from JSON.parse about 5 times slower, and a
    // replay upcasts every scan stored before counting.
    1: (data) => Object.assign({}, data, { visitorHash: null, addressHash: null, bot: false, counted: true }),
  },
});

/**
 * The scans of one fundraiser and UTC day that a scan stream's writer took past the log's cap on
 * anonymous writes (core's log-cap.ts): counted by the batch, not stored one by one. `requests`
 * is how many it took, `counted` the ones that counted, with what the writer must remember of
 * them when it rebuilds (scan-counting.ts): the visitors a flood repeats, robots and addresses
 * past their limit are only a number here.
 */
export const ScansTallied = defineEvent(
  'ScansTallied',
  z.object({
    fundraiserId: z.string().min(1),
    /** The earliest and the latest scan of the tally, both on one UTC day. */
    from: isoInstant,
    at: isoInstant,
    requests: z.number().int().positive(),
    counted: z.array(
      z.object({ at: isoInstant, visitorHash: dailyHash.nullable(), addressHash: dailyHash.nullable() }),
    ),
  }),
);

/** A `dailyHash` as the schema takes it: absent is null. */
function dailyHashOrNull(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' && value.length >= 1 && value.length <= 64 ? value : undefined;
}

/**
 * `ScanRecorded`'s current version read by hand, for `readEvent`: scans are most of the log and
 * every reader (projectors, replays, a scan writer's rebuild) reads them all, where zod's object
 * parse cost more than reading them from the store (a donation replay took 1.75-2.03 times a raw
 * read, issue 33). Answers what the schema would, field for field (the `at` through the
 * expression of the schema's own `isoInstant`), or undefined for the schema to decide and word
 * its refusal.
 */
export function readScanRecordedData(data: unknown): z.output<typeof ScanRecorded.schema> | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const fields = data as Record<string, unknown>;
  const { scanId, fundraiserId, at, bot = false, counted } = fields;
  const visitorHash = dailyHashOrNull(fields.visitorHash);
  const addressHash = dailyHashOrNull(fields.addressHash);
  if (
    typeof scanId !== 'string' ||
    scanId.length === 0 ||
    typeof fundraiserId !== 'string' ||
    fundraiserId.length === 0 ||
    typeof at !== 'string' ||
    visitorHash === undefined ||
    addressHash === undefined ||
    typeof bot !== 'boolean' ||
    typeof counted !== 'boolean' ||
    !isoInstantPattern.test(at)
  ) {
    return undefined;
  }
  return { scanId, fundraiserId, at, visitorHash, addressHash, bot, counted };
}

/**
 * Appended by an ingestor when it takes over a partition's stream: the revision it bumps fences
 * off the previous owner, whose next append then fails its expected-revision check.
 */
export const PartitionClaimed = defineEvent(
  'PartitionClaimed',
  z.object({
    topic: z.string().min(1),
    partition: z.number().int().nonnegative(),
    memberId: z.string(),
    at: isoInstant,
  }),
);
