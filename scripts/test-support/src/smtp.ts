import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { WAIT_MS, waitFor } from './deadlines';
import { freePort } from './free-ports';

export interface ReceivedMail {
  messageId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** When the server accepted it (after the whole message arrived), epoch ms. */
  acceptedAt: number;
}

export interface LocalSmtp {
  port: number;
  /** For SMTP_URL: plain SMTP on loopback, with credentials (any are accepted). */
  url: string;
  /** Every message accepted so far, in order. */
  messages: ReceivedMail[];
  /** How many deliveries it refused so far. */
  refused(): number;
  /** Resolves with the accepted messages once `predicate` holds for them. */
  waitFor(predicate: (messages: ReceivedMail[]) => boolean, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Stops listening (a mail server that is down); `start()` listens on the same port again. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

const toReceived = (parsed: ParsedMail): ReceivedMail => ({
  messageId: parsed.messageId ?? '',
  to: [parsed.to ?? []]
    .flat()
    .map((address) => address.text)
    .join(', '),
  subject: parsed.subject ?? '',
  text: parsed.text ?? '',
  html: typeof parsed.html === 'string' ? parsed.html : '',
  acceptedAt: Date.now(),
});

/**
 * A real SMTP server on loopback (the npm `smtp-server`), for tests and benchmarks: it accepts
 * any sender, recipient and credentials, keeps what it receives, and can refuse the first
 * `refuse` deliveries with a temporary error (451), as a busy or greylisting server does.
 * `parse: false` keeps only the Message-ID and To headers, for benchmarks. `refuseRecipients`
 * refuses every recipient for good (550), naming the address as Postfix's refusal does.
 */
export async function startSmtpServer(
  options: { port?: number; refuse?: number; parse?: boolean; refuseRecipients?: boolean } = {},
): Promise<LocalSmtp> {
  const port = options.port ?? (await freePort());
  const parse = options.parse ?? true;
  const messages: ReceivedMail[] = [];
  let refusals = 0;
  let server: SMTPServer | undefined;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const created = new SMTPServer({
        authOptional: true,
        // Loopback has no name to look up; the lookup would wait for a resolver that never answers.
        disableReverseLookup: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        // A pooled client keeps its connections open: stopping must not wait for it.
        closeTimeout: 500,
        onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
        onRcptTo(address, _session, callback) {
          if (!options.refuseRecipients) return callback();
          const error = Object.assign(new Error(`<${address.address}>: Recipient address rejected: User unknown`), {
            responseCode: 550,
          });
          callback(error);
        },
        onData(stream, _session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            if (refusals < (options.refuse ?? 0)) {
              refusals += 1;
              const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
              callback(error);
              return;
            }
            const raw = Buffer.concat(chunks);
            if (!parse) {
              const head = raw.subarray(0, 4096).toString('latin1');
              const messageId = /^Message-ID:\s*(\S+)/im.exec(head)?.[1] ?? '';
              const to = /^To:\s*(\S+)/im.exec(head)?.[1] ?? '';
              messages.push({ messageId, to, subject: '', text: '', html: '', acceptedAt: Date.now() });
              callback();
              return;
            }
            simpleParser(raw).then(
              (parsed) => {
                messages.push(toReceived(parsed));
                callback();
              },
              (error: Error) => callback(error),
            );
          });
        },
      });
      created.once('error', reject);
      created.listen(port, '127.0.0.1', () => {
        server = created;
        resolve();
      });
    });

  await listen();
  return {
    port,
    url: `smtp://tester:secret@127.0.0.1:${port}`,
    messages,
    refused: () => refusals,
    waitFor: (predicate, timeoutMs = WAIT_MS) =>
      waitFor(`the SMTP server's messages to meet a condition`, () => messages, predicate, {
        timeoutMs,
        intervalMs: 20,
      }),
    async stop() {
      const running = server;
      server = undefined;
      if (running) await new Promise<void>((resolve) => running.close(() => resolve()));
    },
    start: listen,
  };
}
