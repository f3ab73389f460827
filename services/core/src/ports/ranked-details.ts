/** A fundraiser as the admin overview ranks it; blanks and zeros for one not projected (yet). */
export interface RankedFundraiser {
  name: string;
  userId: string;
  scans: number;
  donations: number;
}

/**
 * What the admin overview shows of the few fundraisers and charities it ranks, read from their
 * own features' read models: the fundraisers' `summaries` and the catalogue's `charityNames`.
 * Each answers in the order of the ids asked.
 */
export interface RankedDetails {
  fundraisers(this: void, ids: readonly string[]): Promise<RankedFundraiser[]>;
  /** Null for a charity not projected. */
  charityNames(this: void, ids: readonly string[]): Promise<(string | null)[]>;
}
