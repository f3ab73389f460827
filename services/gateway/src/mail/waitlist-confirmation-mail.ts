import { createHash } from 'node:crypto';
import type { WaitlistConfirmationMail } from '@qrshirt/core';
import type { EmailSender } from './message-senders';
import { renderMail } from './mail-templates';
import { removalLink } from './waitlist-removal-link';

/**
 * The mail that asks a new waitlist signup to confirm its address: a claim link goes only to an
 * address that asked for the shirt. The token travels in the fragment, as the claim link's does.
 * Anyone can join with any address, so it carries nothing they typed (it greets no name): the
 * shop's own words, the shirt and the size only. One message per link, however often it is asked
 * for: a join retried after its mail could not be stored asks again, and must not mail twice. Each
 * message counts against the waitlist's own budgets (`budget`), never against an account's mail.
 */
export function createWaitlistConfirmationMailer({
  email,
  publicBaseUrl,
  budget,
}: {
  email: EmailSender;
  publicBaseUrl: string;
  /** Counts a message to `to` asked for by `client`; false once a budget is spent. */
  budget: (to: string, client: string) => Promise<boolean>;
}) {
  return async ({ to, shirtName, size, token, removeToken, client }: WaitlistConfirmationMail): Promise<void> => {
    await email.sendEmail(
      renderMail({
        to,
        subject: `Confirm your place on the ${shirtName} waitlist`,
        heading: 'Hello, one click to keep your place',
        paragraphs: [
          `You joined the waitlist for ${shirtName} in size ${size}. Confirm that this address is yours, and we will email you here as soon as your shirt is ready.`,
        ],
        action: { label: 'Confirm my place', url: `${publicBaseUrl}/waitlist/confirm#token=${token}` },
        note: 'If you did not join our waitlist, ignore this email: without a confirmation nothing is sent to you again.',
        unsubscribe: removalLink(publicBaseUrl, removeToken),
      }),
      {
        onceKey: `waitlist-confirmation-${createHash('sha256').update(token).digest('hex').slice(0, 32)}`,
        budget: () => budget(to, client),
      },
    );
  };
}
