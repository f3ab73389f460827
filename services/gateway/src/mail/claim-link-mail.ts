import type { ClaimLinkMail } from '@qrshirt/core';
import type { EmailSender } from './message-senders';
import { renderMail } from './mail-templates';
import { removalLink } from './waitlist-removal-link';

/**
 * The mail that brings a waitlisted person to their shirt. The token travels in the fragment
 * (`#token=`), which browsers never send to a server, so it stays out of access logs and Referer.
 */
export function createClaimLinkMailer({ email, publicBaseUrl }: { email: EmailSender; publicBaseUrl: string }) {
  // The name was typed by whoever joined the waitlist, who need not own the address: not greeted.
  return async ({ to, shirtName, charityName, token, removeToken }: ClaimLinkMail): Promise<void> => {
    await email.sendEmail(
      renderMail({
        to,
        subject: `Your ${shirtName} shirt is ready`,
        heading: 'Hello, your shirt is ready',
        paragraphs: [
          `You joined the waitlist for ${shirtName}, supporting ${charityName}. Your shirt now has its own QR code: every scan and donation it brings counts for ${charityName}.`,
          'Claim it to follow its scans and donations on your dashboard. Sign in, or create an account, with this email address.',
        ],
        action: {
          label: 'Claim my shirt',
          // The address, for the sign-in and sign-up forms to start with.
          url: `${publicBaseUrl}/claim#token=${token}&email=${encodeURIComponent(to)}`,
        },
        note: 'The link works once, within 30 days. If you did not join our waitlist, ignore this email.',
        unsubscribe: removalLink(publicBaseUrl, removeToken),
      }),
    );
  };
}
