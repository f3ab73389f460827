/** An owner as the daily summary needs them: whether they asked for it, and the name it greets. */
export interface SummaryOwner {
  dailySummary: boolean;
  displayName: string | null;
}

/**
 * The accounts as the owners' mail reads and changes them: each as its stream has it now (the
 * read model may not have seen an unsubscribe of a moment ago), and the unsubscribe link's
 * change. Filled by the users' `createSummaryOwners`.
 */
export interface SummaryOwners {
  /** Null for an unknown account. */
  find(this: void, userId: string): Promise<SummaryOwner | null>;
  stopDailySummary(this: void, userId: string, at: string): Promise<void>;
}
