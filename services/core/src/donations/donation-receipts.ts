import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import type { CatalogueEntries } from '../ports/catalogue';
import { donationReceiptDecider, donationReceiptStreamName } from './donation-receipt-decider';
import { processorDonationDecider, processorDonationStreamName } from './processor-donation-decider';

/** What a donor's receipt says; the gateway renders it and stores it in the outbox. */
export interface DonationReceipt {
  to: string;
  /** 0 for the first receipt, once the payment is confirmed; then each updated one's number. */
  number: number;
  /** The charity as it is registered (its name when no legal name was given), and its US EIN if known. */
  charity: { name: string; taxId: string | null };
  /** The processor's id of the payment (a Stripe PaymentIntent's). */
  paymentId: string;
  amountCents: number;
  /** The processor's date of the payment. */
  paidAt: string;
  /** False for the processor's test money: no money changed hands. */
  live: boolean;
  /** What the donation counts now: the amount less what is refunded or withdrawn for a dispute. */
  countsCents: number;
  /** What the previous receipt said it counted; null for the first. */
  countedBeforeCents: number | null;
}

export interface DonationReceiptDeps {
  commands: CommandHandler;
  /** The donation's charity as its stream has it now: receipts name it as it is registered. */
  catalogue: Pick<CatalogueEntries, 'charity'>;
  /**
   * Resolves once the receipt is stored in the outbox; asked again for the same payment, number
   * and figure, it stores nothing more.
   */
  sendReceipt(this: void, receipt: DonationReceipt): Promise<void>;
  clock: Clock;
}

/**
 * Receipts derived from the donation's state, never from what one delivery appended: a delivery
 * that stopped after the money and before the mail leaves the receipt due, and the processor's
 * retry mails it. A receipt is stored in the outbox first and recorded after, so a stop between
 * the two mails it again under the same once-key, which the outbox keeps once.
 */
export function createDonationReceipts({ commands, catalogue, sendReceipt, clock }: DonationReceiptDeps) {
  return {
    /** Mails the donation's donor the receipt of what it counts now, unless the last one said so. */
    async mailDue(donationId: string): Promise<void> {
      const { payment, applied, receiptTo } = await commands.loadState(
        processorDonationStreamName(donationId),
        processorDonationDecider,
      );
      // No address given, or its donor erased: nobody to mail.
      if (!payment || receiptTo === null) return;
      const countsCents = payment.amountCents - Object.values(applied).reduce((sum, cents) => sum + cents, 0);
      const stream = donationReceiptStreamName(donationId);
      const receipts = await commands.loadState(stream, donationReceiptDecider);
      if (receipts.countsCents === countsCents) return;
      // Every payment names its charity since the ledger, before which no donor gave an address.
      const charity = payment.charityId === undefined ? null : await catalogue.charity(payment.charityId);
      if (!charity) return;
      await sendReceipt({
        to: receiptTo,
        number: receipts.mailed,
        charity: { name: charity.legalName ?? charity.name, taxId: charity.taxId ?? null },
        paymentId: donationId,
        amountCents: payment.amountCents,
        paidAt: payment.paidAt,
        live: payment.live,
        countsCents,
        countedBeforeCents: receipts.countsCents,
      });
      await commands.handle(stream, donationReceiptDecider, () => ({
        type: 'RecordReceipt',
        donationId,
        countsCents,
        at: clock().toISOString(),
      }));
    },
  };
}
