import type { z } from 'zod';
import { AddressRecordNoted, AddressRecordsComplete } from './address-records';
import { AdminDataAccessed } from './admin-audit';
import { DonationCompleted, PageViewed, ShirtClicked, WaitlistSignup } from './analytics';
import { CharityApproved, CharityCreated, CharityRejected, CharityUpdated } from './charities';
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

/**
 * Every event type the log may hold, by name. Apart from the barrel (index.ts) so that the modules
 * that describe events by type (personal-data.ts) name the types without importing it.
 */
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
  AddressRecordNoted,
  AddressRecordsComplete,
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
