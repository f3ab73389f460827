import { createHash } from 'node:crypto';
import type { DonationReceipt } from '@qrshirt/core';
import type { EmailSender } from './message-senders';
import { renderMail } from './mail-templates';

/** The line a US donor's receipt must carry when nothing was given in return (IRS Publication 1771). */
const NO_GOODS_OR_SERVICES = 'No goods or services were provided in exchange for this donation.';

const dollars = (cents: number) => (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });

/** Receipts give the processor's date in UTC, said so: the donor's own zone is not known. */
const dateOf = (instant: string) =>
  `${new Date(instant).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })} (UTC)`;

/** What changed since the last receipt, in the donor's terms. */
function change({ countsCents, countedBeforeCents, charity }: DonationReceipt): string {
  const moved = (countedBeforeCents ?? 0) - countsCents;
  return moved > 0
    ? `${dollars(moved)} of your donation to ${charity.name} was refunded, or withdrawn for a dispute.`
    : `${dollars(-moved)} of your donation to ${charity.name} that was taken back counts again: a refund failed, or a dispute ended in the charity's favour.`;
}

/**
 * A donor's receipt: the charity as registered and its tax id, the amount, the processor's date
 * and payment id, and the line the IRS asks for; an updated one after a refund, a failed refund or
 * a dispute says what changed and what the donation counts now. One message per payment, number
 * and figure, however often the processor's retries ask for it.
 */
export function createDonationReceiptMailer({ email }: { email: EmailSender }) {
  return async (receipt: DonationReceipt): Promise<void> => {
    const { to, number, charity, paymentId, amountCents, paidAt, live, countsCents } = receipt;
    const updated = number > 0;
    const test = live ? '' : '[Test] ';
    const facts: [string, string][] = [['Charity', charity.name]];
    if (charity.taxId) facts.push(['Tax id (EIN)', charity.taxId]);
    facts.push(['Amount', dollars(amountCents)], ['Date', dateOf(paidAt)], ['Payment id', paymentId]);
    if (countsCents < amountCents) {
      facts.push(['Refunded', dollars(amountCents - countsCents)], ['Donation now', dollars(countsCents)]);
    }
    await email.sendEmail(
      renderMail({
        to,
        subject: `${test}${updated ? 'Updated receipt' : 'Receipt'} for your donation to ${charity.name}`,
        heading: updated ? 'Your donation receipt, updated' : 'Thank you for your donation',
        paragraphs: [
          ...(live
            ? []
            : [
                'This is a test: the payment was made with test money, so no money changed hands and nothing was donated. It is not valid as a tax receipt.',
              ]),
          updated
            ? `${change(receipt)} This receipt replaces the earlier ones.`
            : 'Here is the receipt of your donation.',
        ],
        facts,
        closing: [NO_GOODS_OR_SERVICES],
        note: 'Keep this email for your records. Any question about the payment: give its payment id.',
      }),
      {
        onceKey: `donation-receipt-${createHash('sha256').update(`${paymentId}:${number}:${countsCents}`).digest('hex').slice(0, 32)}`,
      },
    );
  };
}
