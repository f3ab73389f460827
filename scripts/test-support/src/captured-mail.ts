import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { waitFor } from './deadlines';

/**
 * Reading what a product started without SMTP_URL "sent": mails as `.eml` files in
 * `<dataDir>/mail/`, texts as `.txt` files in `<dataDir>/sms/`, as a developer would read them.
 */

export interface CapturedMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
}

async function filesIn(folder: string, extension: string): Promise<string[]> {
  try {
    return (await readdir(folder)).filter((name) => name.endsWith(extension)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Every mail written for `address` (any case), oldest first. */
export async function mailsTo(dataDir: string, address: string): Promise<CapturedMail[]> {
  const folder = path.join(dataDir, 'mail');
  const mails: CapturedMail[] = [];
  for (const file of await filesIn(folder, '.eml')) {
    const parsed = await simpleParser(await readFile(path.join(folder, file)));
    const to = [parsed.to ?? []]
      .flat()
      .map((list) => list.text)
      .join(', ');
    if (!to.toLowerCase().includes(address.toLowerCase())) continue;
    mails.push({
      file,
      to,
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : '',
      messageId: parsed.messageId ?? '',
    });
  }
  return mails;
}

/** Polls until `address` has received `count` mails (the outbox sender writes them in the background). */
export async function waitForMails(dataDir: string, address: string, count = 1): Promise<CapturedMail[]> {
  return waitFor(
    `${count} mails to ${address}`,
    () => mailsTo(dataDir, address),
    (mails) => mails.length >= count,
  );
}

/** The newest mail to `address`, once there are `count`. */
export async function latestMail(dataDir: string, address: string, count = 1): Promise<CapturedMail> {
  return (await waitForMails(dataDir, address, count)).at(-1)!;
}

/** The token of the first link in the mail's text to `<base>/<page>#<name>=<token>`. */
export function tokenIn(mail: CapturedMail, page: string, name = 'token'): string {
  const token = new RegExp(`/${page}#${name}=([A-Za-z0-9_-]+)`).exec(mail.text)?.[1];
  if (!token) throw new Error(`no /${page}#${name}= link in: ${mail.text}`);
  return token;
}

/** The texts of the SMS written to `<dataDir>/sms/` for `number`, oldest first; polls until there are `count`. */
export async function waitForSms(dataDir: string, number: string, count = 1): Promise<string[]> {
  const folder = path.join(dataDir, 'sms');
  const textsTo = async () => {
    const texts: string[] = [];
    for (const file of await filesIn(folder, '.txt')) {
      const text = await readFile(path.join(folder, file), 'utf8');
      if (text.includes(number)) texts.push(text);
    }
    return texts;
  };
  return waitFor(`${count} SMS to ${number}`, textsTo, (texts) => texts.length >= count);
}
