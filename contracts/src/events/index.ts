import type { z } from 'zod';
import { AdminDataAccessed } from './admin-audit';
import { DonationCompleted, PageViewed, ShirtClicked, WaitlistSignup } from './analytics';
import { CharityApproved, CharityCreated, CharityRejected, CharityUpdated } from './charities';
import type { EventDefinition } from './define-event';
import {
  DonationCheckoutCreated,
  DonationConfirmed,
  DonationFeeCharged,
  DonationMovementRecorded,
  DonationReceiptAddressed,
  DonationReceiptMailed,
  DonationRefunded,
  DonationReportConfirmed,
  DonationReportDropped,
  DonationRestored,
  DonationReported,
  DonationWebhookReceived,
} from './donations';
import { FundraiserCharityChanged, FundraiserGoalSet, FundraiserRenamed } from './fundraiser-changes';
import {
  DonationRecorded,
  FundraiserClaimed,
  FundraiserCreated,
  FundraiserShortCodeAssigned,
  PartitionClaimed,
  ScanRecorded,
  ScansTallied,
  ShortCodeReserved,
  readScanRecordedData,
} from './fundraisers';
import { LookupKeysInUse } from './lookup-keys';
import { CharityPayoutAccountOpened, CharityPayoutAccountUpdated } from './payouts';
import { ShirtAdded, ShirtUpdated } from './shirts';
import {
  AdminGranted,
  DailySummarySet,
  EmailReleased,
  EmailReserved,
  EmailVerified,
  UserAccountClosed,
  UserProfileUpdated,
  UserRegistered,
  UserSignedIn,
} from './users';
import {
  ClaimLinkReissued,
  WaitlistConfirmationResent,
  WaitlistEntryConfirmed,
  WaitlistEntryFulfilled,
  WaitlistEntryRemoved,
  WaitlistJoined,
} from './waitlist';

export * from './admin-audit';
export * from './analytics';
export * from './charities';
export * from './define-event';
export * from './donations';
export * from './fundraiser-changes';
export * from './fundraisers';
export * from './lookup-keys';
export * from './payouts';
export * from './personal-data';
export * from './shirts';
export * from './users';
export * from './waitlist';

export const eventDefinitions = {
  UserRegistered,
  UserProfileUpdated,
  UserSignedIn,
  DailySummarySet,
  EmailReserved,
  EmailVerified,
  EmailReleased,
  AdminGranted,
  UserAccountClosed,
  LookupKeysInUse,
  AdminDataAccessed,
  CharityCreated,
  CharityUpdated,
  CharityApproved,
  CharityRejected,
  ShirtAdded,
  ShirtUpdated,
  FundraiserCreated,
  FundraiserClaimed,
  FundraiserCharityChanged,
  FundraiserRenamed,
  FundraiserGoalSet,
  FundraiserShortCodeAssigned,
  ShortCodeReserved,
  DonationRecorded,
  DonationCheckoutCreated,
  DonationReported,
  DonationReportConfirmed,
  DonationReportDropped,
  DonationConfirmed,
  DonationRefunded,
  DonationRestored,
  DonationMovementRecorded,
  DonationFeeCharged,
  DonationWebhookReceived,
  DonationReceiptAddressed,
  DonationReceiptMailed,
  CharityPayoutAccountOpened,
  CharityPayoutAccountUpdated,
  ScanRecorded,
  ScansTallied,
  PartitionClaimed,
  WaitlistJoined,
  WaitlistConfirmationResent,
  WaitlistEntryConfirmed,
  WaitlistEntryFulfilled,
  ClaimLinkReissued,
  WaitlistEntryRemoved,
  PageViewed,
  ShirtClicked,
  WaitlistSignup,
  DonationCompleted,
} as const;

type Definitions = typeof eventDefinitions;
export type EventType = keyof Definitions;
export type EventData<T extends EventType> = z.infer<Definitions[T]['schema']>;
/** A domain event as the deciders and projectors see it: a discriminated union on `type`. */
export type DomainEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;

export const analyticsEventTypes = ['PageViewed', 'ShirtClicked', 'WaitlistSignup', 'DonationCompleted'] as const;

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(eventDefinitions, type);
}

/** Metadata key that records which schema version an event was written with. */
export const SCHEMA_VERSION = 'schemaVersion';

export class UnknownEventError extends Error {
  constructor(
    readonly eventType: string,
    reason: string,
  ) {
    super(`Cannot read event ${eventType}: ${reason}`);
    this.name = 'UnknownEventError';
  }
}

/** Stamps an outgoing event with its schema version (merged into the caller's metadata). */
export function eventMetadata(type: EventType, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...metadata, [SCHEMA_VERSION]: eventDefinitions[type].version };
}

/** Upcasts stored data from the version it was written with, then validates it. */
export function readEvent(type: string, data: unknown, metadata: Record<string, unknown>): DomainEvent {
  // Most of the log: a current scan is read before the look-up of its type, which hashes the
  // type's string, new for every row read (a twentieth of a donation replay, issue 33).
  if (type === 'ScanRecorded' && metadata[SCHEMA_VERSION] === ScanRecorded.version) {
    const scan = readScanRecordedData(data);
    if (scan) return { type, data: scan };
  }
  if (!isEventType(type)) throw new UnknownEventError(type, 'unknown type');
  const definition: EventDefinition<string, z.ZodType> = eventDefinitions[type];
  let version = typeof metadata[SCHEMA_VERSION] === 'number' ? metadata[SCHEMA_VERSION] : 1;
  let current = data;
  while (version < definition.version) {
    const upcast = definition.upcasters[version];
    if (!upcast) throw new UnknownEventError(type, `no upcaster from version ${version}`);
    current = upcast(current);
    version += 1;
  }
  if (type === 'ScanRecorded') {
    const scan = readScanRecordedData(current);
    if (scan) return { type, data: scan };
  }
  const parsed = definition.schema.safeParse(current);
  if (!parsed.success) throw new UnknownEventError(type, parsed.error.message);
  return { type, data: parsed.data } as DomainEvent;
}
