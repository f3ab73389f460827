import { donorDataSubject, type PersonalDataExport } from '@qrshirt/contracts';
import type { CommandHandler } from '../kit/command-handler';
import { normalEmailAddress } from '../kit/email-address';
import type { EventStore, StoredEvent } from '../kit/event-store';
import type { AddressRecords } from '../ports/address-records';
import { donationReceiptStreamName } from './donation-receipt-decider';
import { processorDonationDecider, processorDonationStreamName } from './processor-donation-decider';

export interface DonorAddressDeps {
  commands: CommandHandler;
  /** The store with personal fields revealed (`withPersonalData`): addresses are compared in clear. */
  eventStore: EventStore;
  /** Erases a donor's address, wherever the log holds it; false when erased already. */
  personalData: { erase(this: void, subject: string): Promise<boolean> };
  /** Where each donation's receipt address was noted (`DonationUseCaseDeps`'s). */
  addressRecords: Pick<AddressRecords, 'of'>;
}

/**
 * The addresses donors gave for their receipts, as a person's account finds them: the donations
 * whose receipts went to an address are that address's person's, once they proved it theirs.
 * Each address is sealed under its donation's own key, so erasing one erases exactly it.
 */
export function createDonorAddresses({ commands, eventStore, personalData, addressRecords }: DonorAddressDeps) {
  /** The donations whose receipts go to the address (any case), oldest first, with their ledgers' state. */
  async function* donationsTo(address: string) {
    const wanted = normalEmailAddress(address);
    for (const record of await addressRecords.of(address)) {
      if (record.kind !== 'donation-receipt') continue;
      const { donationId } = record;
      const ledger = await commands.loadState(processorDonationStreamName(donationId), processorDonationDecider);
      // A note whose ledger was never written, or whose address is erased, names nothing of theirs.
      if (ledger.receiptTo !== null && normalEmailAddress(ledger.receiptTo) === wanted) yield { donationId, ledger };
    }
  }

  return {
    /** The donations made with the address, each with the events of its ledger and receipts. */
    async madeWith(
      address: string,
    ): Promise<{ donation: PersonalDataExport['donations'][number]; events: StoredEvent[] }[]> {
      const found: { donation: PersonalDataExport['donations'][number]; events: StoredEvent[] }[] = [];
      for await (const { donationId, ledger } of donationsTo(address)) {
        const { payment, applied, receiptTo } = ledger;
        const [ledgerEvents, receiptEvents] = await Promise.all([
          eventStore.readStream(processorDonationStreamName(donationId)),
          eventStore.readStream(donationReceiptStreamName(donationId)),
        ]);
        if (!payment) continue;
        found.push({
          donation: {
            id: donationId,
            email: receiptTo,
            fundraiserId: payment.fundraiserId,
            charityId: payment.charityId ?? null,
            amount: payment.amountCents / 100,
            refunded: Object.values(applied).reduce((sum, cents) => sum + cents, 0) / 100,
            live: payment.live,
            paidAt: payment.paidAt,
          },
          events: [...ledgerEvents, ...receiptEvents],
        });
      }
      return found;
    },

    /** Erases the address wherever the log holds it as a donor's, so no receipt goes to it again. */
    async eraseMadeWith(address: string): Promise<void> {
      for await (const { donationId } of donationsTo(address)) await personalData.erase(donorDataSubject(donationId));
    },
  };
}
