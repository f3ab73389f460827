import type { EventData, Fundraiser } from '@qrshirt/contracts';
import type { CatalogueCharity, CatalogueShirt } from './catalogue';

/**
 * What a claim is checked against: the waitlist entry's fulfilment, as the fulfilment feature
 * records it (its state is one).
 */
export type ClaimOffer = Pick<
  EventData<'WaitlistEntryFulfilled'>,
  'entryId' | 'fundraiserId' | 'email' | 'claimTokenHash' | 'claimExpiresAt'
>;

/** Whatever is wrong with a claim link, its person is told the same. */
export const INVALID_CLAIM_LINK = 'This claim link is not valid: open the link from the email exactly as it came';

/**
 * The fundraisers of waitlist entries, as fulfilment asks for them: made for an entry, owned by
 * nobody until the entry's person claims one with the link mailed to them. Filled by the
 * fundraisers' `createEntryFundraisers`.
 */
export interface EntryFundraisers {
  /** A new fundraiser id, one a person can type: QR codes printed before short codes carry it. */
  newId(this: void): string;
  /** As the fundraiser's stream has it; null when it was never made. */
  find(this: void, fundraiserId: string): Promise<Fundraiser | null>;
  create(
    this: void,
    made: {
      fundraiserId: string;
      entryId: string;
      shirt: CatalogueShirt | null;
      charity: CatalogueCharity | null;
      at: string;
    },
  ): Promise<Fundraiser>;
  claim(
    this: void,
    claim: {
      fundraiserId: string;
      userId: string;
      /** The claimant's address, and whether they proved it is theirs. */
      claimant: { email: string | null; verified: boolean };
      /** SHA-256 of the token they hold. */
      tokenHash: string;
      offer: ClaimOffer;
      at: string;
    },
  ): Promise<{ claimed: boolean; fundraiser: Fundraiser }>;
}
