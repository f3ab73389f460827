import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { OutboxMessage } from '@qrshirt/core';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '@qrshirt/runtime';

/** Hands one message to whatever delivers it; rejects when it was not taken. */
export interface Transport {
  deliver(message: OutboxMessage): Promise<void>;
  close(): void;
}

/** `2026-11-24T03-15-21-123Z`: sorts by time and is a valid file name everywhere. */
const fileTime = (date: Date) => date.toISOString().replace(/[:.]/g, '-');

const mailOptions = (message: OutboxMessage, from: string) => ({
  from,
  to: message.to,
  subject: message.subject,
  text: message.text,
  ...(message.html !== null && { html: message.html }),
  messageId: message.messageId,
});

/**
 * SMTP through nodemailer: `smtp://` (STARTTLS when the server offers it) or `smtps://`
 * (implicit TLS), with credentials in the URL. A server that refuses or cannot be reached makes
 * `deliver` reject, and the outbox tries again later. Pooled: a few kept-open connections carry
 * a burst instead of one handshake per message; the URL's own parameters win over these.
 */
export function createSmtpTransport({ url, from }: { url: string; from: string }): Transport {
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 5,
    // A server that hangs must not hold a message past its lease.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async deliver(message) {
      await transporter.sendMail(mailOptions(message, from));
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP_URL: each mail is written whole (headers, text and HTML parts, its Message-ID) as
 * `<folder>/<time>-<id>.eml`, which any mail client opens, and a log line names the file. Owner-only:
 * the mails carry live reset, verification and claim links.
 */
export function createEmlFileTransport({
  folder,
  from,
  log,
}: {
  folder: string;
  from: string;
  log: Logger;
}): Transport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async deliver(message) {
      const { message: bytes } = (await composer.sendMail(mailOptions(message, from))) as { message: Buffer };
      await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
      const file = path.join(folder, `${fileTime(new Date())}-${message.id}.eml`);
      await writeFile(file, bytes, { mode: PRIVATE_FILE_MODE });
      log.info({ file, subject: message.subject }, `mail written to ${file} (open it with any mail client)`);
    },
    close: () => composer.close(),
  };
}

/** No SMS provider is connected: each text (a sign-in code) is written owner-only as `<folder>/<time>-<id>.txt`, named in the log. */
export function createSmsFileTransport({ folder, log }: { folder: string; log: Logger }): Transport {
  return {
    async deliver(message) {
      await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
      const file = path.join(folder, `${fileTime(new Date())}-${message.id}.txt`);
      await writeFile(file, `To: ${message.to}\n\n${message.text}\n`, { mode: PRIVATE_FILE_MODE });
      log.info({ file }, `SMS written to ${file}`);
    },
    close: () => undefined,
  };
}
