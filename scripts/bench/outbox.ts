/**
 * The mail outbox: password-reset requests to a gateway process whose SMTP_URL is a loopback SMTP
 * server, each answered once its mail is stored; the sender then delivers them. Measured, for a
 * burst (`CONCURRENCY` requests at a time, as fast as they go): messages per second from the first
 * request to the last acceptance by the SMTP server; and, at a steady `PACED_RATE` requests a
 * second, each message's time from its request to that acceptance (p50, p99), which a burst would
 * turn into a queue's length. Baseline in the same run: nodemailer sending the same number of
 * messages straight to the same server over as many pooled connections, with no outbox in between.
 *
 *   npx tsx scripts/bench/outbox.ts [--messages 2000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import nodemailer from 'nodemailer';
import { solveProofOfWork, startGatewayProcess, startSmtpServer } from '@qrshirt/test-support';
import { runDirectly } from './cli';

/** Requests in flight at once, as many browsers asking for reset links together. */
const CONCURRENCY = 20;
const PACED_RATE = 100;
const PACED_MESSAGES = 500;

export interface OutboxBenchFigures {
  messages: number;
  direct: { perSecond: number };
  outbox: { perSecond: number; burstP50Ms: number; requestP50Ms: number; pacedP50Ms: number; pacedP99Ms: number };
  ratio: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
const round = (value: number) => Math.round(value * 10) / 10;

async function inParallel(count: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

export async function benchOutbox({ messages = 2_000 } = {}): Promise<OutboxBenchFigures> {
  const smtp = await startSmtpServer({ parse: false });
  const dataDir = mkdtempSync(join(tmpdir(), 'qrshirt-bench-outbox-'));
  try {
    // Baseline: the mail server and nodemailer alone.
    const transport = nodemailer.createTransport({ url: smtp.url, pool: true, maxConnections: 5 });
    const directStart = performance.now();
    await inParallel(messages, async (index) => {
      await transport.sendMail({
        from: 'bench@qrshirts.example',
        to: `direct-${index}@example.com`,
        subject: 'x',
        text: 'x',
      });
    });
    const directSeconds = (performance.now() - directStart) / 1000;
    transport.close();
    smtp.messages.length = 0;

    const gateway = await startGatewayProcess({
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      LOG_LEVEL: 'warn',
      SEED_CATALOG: 'false',
    });
    try {
      const requestedAt = new Map<string, number>();
      const answeredIn: number[] = [];
      let sent = 0;
      const request = async () => {
        const index = sent++;
        const email = `reset-${index}@example.com`;
        // Solved before the clock starts, as a browser's widget solves before it sends.
        const proof = await solveProofOfWork(gateway.url);
        const at = Date.now();
        requestedAt.set(email, at);
        const answer = await fetch(`${gateway.url}/api/auth/password-reset`, {
          method: 'POST',
          // A client address per request: reset mails are limited per address.
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': `198.18.${index >> 8}.${index & 255}`,
            'x-altcha': proof,
          },
          body: JSON.stringify({ email }),
        });
        if (answer.status !== 202) throw new Error(`password reset answered ${answer.status}: ${await answer.text()}`);
        answeredIn.push(Date.now() - at);
      };
      const latencies = (from: number) =>
        smtp.messages
          .slice(from)
          .map((message) => message.acceptedAt - requestedAt.get(message.to)!)
          .sort((a, b) => a - b);

      const start = Date.now();
      await inParallel(messages, request);
      await smtp.waitFor((received) => received.length >= messages, 120_000);
      const seconds = (Math.max(...smtp.messages.map((message) => message.acceptedAt)) - start) / 1000;
      const burst = latencies(0);

      const pacedFrom = smtp.messages.length;
      const paced: Promise<void>[] = [];
      for (let index = 0; index < PACED_MESSAGES; index++) {
        paced.push(request());
        await new Promise((resolve) => setTimeout(resolve, 1000 / PACED_RATE));
      }
      await Promise.all(paced);
      await smtp.waitFor((received) => received.length >= pacedFrom + PACED_MESSAGES, 60_000);
      const steady = latencies(pacedFrom);

      const direct = messages / directSeconds;
      const perSecond = messages / seconds;
      answeredIn.sort((a, b) => a - b);
      return {
        messages,
        direct: { perSecond: Math.round(direct) },
        outbox: {
          perSecond: Math.round(perSecond),
          burstP50Ms: percentile(burst, 0.5),
          requestP50Ms: percentile(answeredIn, 0.5),
          pacedP50Ms: percentile(steady, 0.5),
          pacedP99Ms: percentile(steady, 0.99),
        },
        ratio: round((perSecond / direct) * 100) / 100,
      };
    } finally {
      await gateway.terminate();
    }
  } finally {
    await smtp.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatOutboxFigures(figures: OutboxBenchFigures): string {
  return [
    `Mail outbox, ${figures.messages} password-reset mails, ${CONCURRENCY} requests at a time, to a loopback SMTP server`,
    '| path | burst messages/s | ratio | burst: request to SMTP acceptance p50 | burst: request answered (stored) p50 | ' +
      `at ${PACED_RATE} requests/s: request to SMTP acceptance p50 / p99 |`,
    '|---|---|---|---|---|---|',
    `| nodemailer straight to the server, 5 pooled connections (baseline) | ${figures.direct.perSecond} | 1.00 | | | |`,
    `| HTTP request, outbox, sender | ${figures.outbox.perSecond} | ${figures.ratio.toFixed(2)} | ${figures.outbox.burstP50Ms} ms | ` +
      `${figures.outbox.requestP50Ms} ms | ${figures.outbox.pacedP50Ms} / ${figures.outbox.pacedP99Ms} ms |`,
  ].join('\n');
}

if (runDirectly(import.meta.url)) {
  const { values } = parseArgs({ options: { messages: { type: 'string', default: '2000' } } });
  const messages = Number(values.messages);
  if (!Number.isInteger(messages) || messages < 10) throw new Error('--messages must be a whole number of at least 10');
  console.log(formatOutboxFigures(await benchOutbox({ messages })));
}
