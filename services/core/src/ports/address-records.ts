/** Something made with an address: a waitlist signup (in its stream), or a donation whose receipts go there. */
export type AddressRecord =
  { kind: 'waitlist-signup'; entryId: string; stream: string } | { kind: 'donation-receipt'; donationId: string };

/**
 * What was done with an address, found in one stream of its own instead of the whole log: the
 * waitlist and donations note each record before they write it, and a person's account reads
 * them to export or erase what was made with the address it proved theirs. Filled by
 * personal-data's `createAddressRecords`.
 */
export interface AddressRecords {
  /**
   * Notes a record about to be written with the address (any spelling): called before the
   * write, so a record can be noted and never written, never written and not noted. Noting one
   * again adds nothing.
   */
  note(this: void, address: string, record: AddressRecord): Promise<void>;
  /** The records noted for the address, oldest first, each once; a reader checks each was written, with it. */
  of(this: void, address: string): Promise<AddressRecord[]>;
}
