import type { CharityStatus } from '@qrshirt/contracts';

/** A charity as a fundraiser, a waitlist entry, a fulfilment, a donor's receipt or its payouts need it. */
export interface CatalogueCharity {
  charityId: string;
  name: string;
  /** What receipts name it by, when its admin gave it; else its name. */
  legalName?: string;
  /** Its US EIN, when its admin gave it. */
  taxId?: string;
  /** Only an approved charity is in the shop: offered, supported by fundraisers and waitlists. */
  status: CharityStatus;
  /** The account that submitted it (an admin's for an admin's charity); null for the seeded catalogue. */
  createdBy: string | null;
}

/** A shirt as a fundraiser, a waitlist entry or a fulfilment that names one needs it. */
export interface CatalogueShirt {
  shirtId: string;
  name: string;
  sizes: string[];
}

/**
 * The catalogue as the features that name its charities and shirts read it: each as its stream
 * has it now, so a decision never sees a read model's lag; null when there is none. The
 * catalogue's `createCatalogueEntries` fills it.
 */
export interface CatalogueEntries {
  charity(this: void, charityId: string): Promise<CatalogueCharity | null>;
  shirt(this: void, shirtId: string): Promise<CatalogueShirt | null>;
}

/** Whether supporters may choose it (fundraisers, the waitlist): only once an admin approved it. */
export const isApprovedCharity = <Charity extends CatalogueCharity>(charity: Charity | null): charity is Charity =>
  charity?.status === 'approved';
