import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { OutboxMessage } from '@qrshirt/core';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '@qrshirt/runtime';

/** Hands one message to whatever delivers it; rejects when it was not taken. */
export interface Transport {
  deliver(message: OutboxMessage): Promise<void>;
  /** A transport that keeps what it delivered (files) deletes what is older than its retention. */
  prune?(): Promise<number>;
  /** ...and what it keeps for `to`, whose person is erased. */
  forget?(to: string): Promise<number>;
  close(): void;
}

/**
 * How long a written mail or text stays: long enough to open a link (a verification lasts a
 * day), not a second inbox of live links and addresses.
 */
const MESSAGE_FILE_RETENTION_MS = 7 * 24 * 60 * 60_000;

/** `2026-11-24T03-15-21-123Z`: sorts by time and is a valid file name everywhere. */
const fileTime = (date: Date) => date.toISOString().replace(/[:.]/g, '-');
/** The time a file's name starts with; NaN for a name of another shape. */
const timeOfFile = (name: string) =>
  Date.parse(name.slice(0, 24).replace(/T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z$/, 'T$1:$2:$3.$4Z'));

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
 * A private folder of delivered messages, one file each, named `<time>-<id><extension>`, whose
 * recipient is on a `To:` line among its first lines (an .eml's header, a text's first line).
 */
function messageFolder(folder: string, extension: string) {
  async function files(): Promise<string[]> {
    const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    return names.filter((name) => name.endsWith(extension));
  }
  async function deleteWhere(keep: (name: string) => boolean | Promise<boolean>): Promise<number> {
    let deleted = 0;
    for (const name of await files()) {
      if (await keep(name)) continue;
      await rm(path.join(folder, name), { force: true });
      deleted += 1;
    }
    return deleted;
  }
  return {
    async write(message: OutboxMessage, bytes: string | Buffer): Promise<string> {
      await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
      const file = path.join(folder, `${fileTime(new Date())}-${message.id}${extension}`);
      await writeFile(file, bytes, { mode: PRIVATE_FILE_MODE });
      return file;
    },
    // By the time in its name, the machine's (as the file's own times are): a file named otherwise
    // is not one of ours, and stays.
    prune: () => deleteWhere((name) => !(timeOfFile(name) < Date.now() - MESSAGE_FILE_RETENTION_MS)),
    forget: (to: string) => {
      const wanted = to.trim().toLowerCase();
      return deleteWhere(async (name) => {
        const head = (await readFile(path.join(folder, name), 'utf8')).split(/\r?\n\r?\n/, 1)[0]!;
        return /^To: *(.*)$/im.exec(head)?.[1]?.trim().toLowerCase() !== wanted;
      });
    },
  };
}

/**
 * Without SMTP_URL: each mail is written whole (headers, text and HTML parts, its Message-ID) as
 * `<folder>/<time>-<id>.eml`, which any mail client opens, and a log line names the file. Owner-only,
 * and kept MESSAGE_FILE_RETENTION_MS: the mails carry live reset, verification and claim links.
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
  const files = messageFolder(folder, '.eml');
  return {
    async deliver(message) {
      const { message: bytes } = (await composer.sendMail(mailOptions(message, from))) as { message: Buffer };
      const file = await files.write(message, bytes);
      log.info({ file, subject: message.subject }, `mail written to ${file} (open it with any mail client)`);
    },
    prune: files.prune,
    forget: files.forget,
    close: () => composer.close(),
  };
}

/**
 * No SMS provider is connected: each text (a sign-in code) is written owner-only as
 * `<folder>/<time>-<id>.txt`, named in the log, and kept MESSAGE_FILE_RETENTION_MS.
 */
export function createSmsFileTransport({ folder, log }: { folder: string; log: Logger }): Transport {
  const files = messageFolder(folder, '.txt');
  return {
    async deliver(message) {
      const file = await files.write(message, `To: ${message.to}\n\n${message.text}\n`);
      log.info({ file }, `SMS written to ${file}`);
    },
    prune: files.prune,
    forget: files.forget,
    close: () => undefined,
  };
}
