import { createHash } from 'node:crypto';
import type { DailySummary, DailySummaryMail } from '@qrshirt/core';
import type { EmailSender } from './message-senders';
import { renderMail } from './mail-templates';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const dollars = (amount: number) => `$${Number.isInteger(amount) ? amount : amount.toFixed(2)}`;

function figures({ scans, donations, amountRaised }: Pick<DailySummary, 'scans' | 'donations' | 'amountRaised'>) {
  const parts: string[] = [];
  if (scans > 0) parts.push(count(scans, 'scan', 'scans'));
  if (donations > 0) parts.push(count(donations, 'donation', 'donations'));
  if (amountRaised > 0) parts.push(`${dollars(amountRaised)} raised`);
  return parts;
}

/** "Your shirt yesterday: 12 scans, $30 raised": what the day brought, readable in the inbox list. */
function dailySummarySubject({ shirts, scans, donations, amountRaised }: DailySummary): string {
  const headline: string[] = [];
  if (scans > 0) headline.push(count(scans, 'scan', 'scans'));
  if (amountRaised > 0) headline.push(`${dollars(amountRaised)} raised`);
  else if (donations > 0) headline.push(count(donations, 'donation', 'donations'));
  return `Your ${shirts.length === 1 ? 'shirt' : 'shirts'} yesterday: ${headline.join(', ')}`;
}

/*
 * One per owner and day, whoever asks: the outbox keeps the first message of a key. The account id
 * is hashed so the key is a plain id the admin Outbox screen can use in its paths.
 */
const onceKey = (userId: string, day: string) =>
  `daily-summary-${day}-${createHash('sha256').update(userId).digest('hex').slice(0, 32)}`;

/**
 * The daily summary an owner asked for in their profile. Its unsubscribe link carries its token in
 * the fragment (`#token=`), which browsers never send to a server, so it stays out of access logs.
 */
export function createDailySummaryMailer({ email, publicBaseUrl }: { email: EmailSender; publicBaseUrl: string }) {
  return async ({ userId, to, displayName, summary, unsubscribeToken }: DailySummaryMail): Promise<void> => {
    await email.sendEmail(
      renderMail({
        to,
        subject: dailySummarySubject(summary),
        heading: displayName ? `Hello ${displayName}, here is your shirts' day` : "Here is your shirts' day",
        paragraphs: [
          `On ${summary.day} (UTC) your ${summary.shirts.length === 1 ? 'shirt' : 'shirts'} brought ${figures(summary).join(', ')}.`,
          ...summary.shirts.map((shirt) => `${shirt.name}: ${figures(shirt).join(', ')}.`),
          'Thank you for wearing it: every scan is someone who heard about the cause.',
        ],
        action: { label: 'See your dashboard', url: `${publicBaseUrl}/dashboard` },
        note: 'You get this mail on days your shirts are scanned or raise money, because you asked for it in your profile. Quiet days bring no mail.',
        unsubscribe: {
          label: 'Stop these daily summaries',
          url: `${publicBaseUrl}/unsubscribe#token=${unsubscribeToken}`,
        },
      }),
      { onceKey: onceKey(userId, summary.day) },
    );
  };
}
