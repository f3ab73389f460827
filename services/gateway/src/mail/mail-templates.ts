import type { EmailMessage } from './message-senders';

const PRODUCT_NAME = 'QR Shirts';

interface MailContent {
  to: string;
  subject: string;
  heading: string;
  paragraphs: string[];
  /** Labelled values after the paragraphs, one a line (a receipt's charity, amount, date). */
  facts?: [label: string, value: string][];
  /** Paragraphs after the facts. */
  closing?: string[];
  /** The one thing the mail asks the reader to do. */
  action?: { label: string; url: string };
  /** Small print under the action: how long a link works, what to do if it was not them. */
  note?: string;
  /**
   * For mails someone asked for (a daily summary, the waitlist's): the link that stops them, under
   * the note.
   */
  unsubscribe?: { label: string; url: string };
}

const FOOTER =
  `${PRODUCT_NAME}: shirts with a QR code that raise money for charity. ` +
  'You get this email because of something done on our site with this address. It was sent automatically; replies are not read.';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );

const paragraphHtml = (paragraph: string) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(paragraph)}</p>`;

/**
 * Every mail the product sends: a plain-text part for any mail client and an HTML part, both with
 * the product's name and the same footer. Values are escaped in the HTML; no remote images, so
 * nothing loads (or tracks) when the mail is opened.
 */
export function renderMail({
  to,
  subject,
  heading,
  paragraphs,
  facts = [],
  closing = [],
  action,
  note,
  unsubscribe,
}: MailContent): EmailMessage {
  const text = [
    heading,
    '',
    ...paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(facts.length > 0 ? [...facts.map(([label, value]) => `${label}: ${value}`), ''] : []),
    ...closing.flatMap((paragraph) => [paragraph, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    ...(note ? [note, ''] : []),
    ...(unsubscribe ? [`${unsubscribe.label}: ${unsubscribe.url}`, ''] : []),
    '--',
    FOOTER,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1a1b1e">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px">
<tr><td style="padding:24px">
<p style="margin:0 0 16px;font-weight:bold;color:#228be6">${escapeHtml(PRODUCT_NAME)}</p>
<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(heading)}</h1>
${paragraphs.map(paragraphHtml).join('\n')}
${
  facts.length > 0
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;line-height:1.5">
${facts.map(([label, value]) => `<tr><td style="padding:0 16px 0 0;color:#555">${escapeHtml(label)}</td><td>${escapeHtml(value)}</td></tr>`).join('\n')}
</table>`
    : ''
}
${closing.map(paragraphHtml).join('\n')}
${
  action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#228be6;color:#ffffff;padding:12px 20px;border-radius:4px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#555">Or copy this address into your browser: ${escapeHtml(action.url)}</p>`
    : ''
}
${note ? `<p style="margin:0 0 16px;font-size:13px;color:#555">${escapeHtml(note)}</p>` : ''}
${unsubscribe ? `<p style="margin:0 0 16px;font-size:13px;color:#555"><a href="${escapeHtml(unsubscribe.url)}" style="color:#555">${escapeHtml(unsubscribe.label)}</a></p>` : ''}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e9ecef;font-size:12px;color:#6b7280">${escapeHtml(FOOTER)}</td></tr>
</table>
</body></html>`;
  return { to, subject, text, html };
}
