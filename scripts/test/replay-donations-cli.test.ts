import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type EventData, type EventType, eventMetadata } from '@qrshirt/contracts';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { formatReplay, replayDonations, replayWindow } from '@qrshirt/projections';
import { runToEnd, toolCommand } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The command as `npm run -s replay-donations -- ...args` runs it, as its own OS process. */
const runCli = (args: string[], env: Record<string, string>) =>
  runToEnd({ name: 'replay-donations', command: toolCommand('replay-donations', args), env });

const event = <T extends EventType>(type: T, data: EventData<T>) => ({ type, data, metadata: eventMetadata(type) });

describe('npm run replay-donations, as a process', () => {
  let dataDir: string;
  const at = (day: number) => `2025-03-0${day}T10:00:00.000Z`;
  // EVENTSTORE_URL emptied: a CI that sets it must not send the command to another store.
  const store = () => ({ DATA_DIR: dataDir, EVENTSTORE_URL: '' });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'qr-replay-cli-'));
    const eventStore = createSqliteEventStore({ path: path.join(dataDir, 'events.sqlite'), synchronous: 'NORMAL' });
    await eventStore.appendToStream('charity-c-1', [
      event('CharityCreated', {
        charityId: 'c-1',
        name: 'Water, Now',
        mission: 'Water.',
        website_url: 'https://example.org/',
        createdBy: null,
        status: 'approved',
        at: at(1),
      }),
    ]);
    await eventStore.appendToStream('fundraiser-f-1', [
      event('FundraiserCreated', {
        fundraiserId: 'f-1',
        userId: 'u-1',
        charityId: 'c-1',
        shirtId: 's-1',
        name: '=1+1',
        at: at(1),
      }),
      event('DonationRecorded', {
        fundraiserId: 'f-1',
        donationId: 'd-1',
        amountCents: 1250,
        currency: 'USD',
        source: 'qr',
        idempotencyKey: null,
        at: at(2),
      }),
    ]);
    // Confirmed money counts (refunds come off again); a report nobody confirmed does not. Its
    // fees are figures of their own: Stripe's comes off net, the platform's share is apart.
    const fee = (to: 'processor' | 'platform', amountCents: number) =>
      event('DonationFeeCharged', {
        donationId: 'pi_1',
        fundraiserId: 'f-1',
        charityId: 'c-1',
        balanceTransactionId: `txn_${to}`,
        to,
        amountCents,
        currency: 'USD',
        donatedAt: at(3),
        live: true,
        at: at(3),
      });
    await eventStore.appendToStream('processor-donation-pi_1', [
      event('DonationConfirmed', {
        donationId: 'pi_1',
        fundraiserId: 'f-1',
        amountCents: 700,
        currency: 'USD',
        reportId: null,
        at: at(3),
      }),
      fee('processor', 50),
      fee('platform', 35),
    ]);
    await eventStore.appendToStream('processor-donation-pi_2', [
      event('DonationConfirmed', {
        donationId: 'pi_2',
        fundraiserId: 'f-1',
        amountCents: 3000,
        currency: 'USD',
        reportId: null,
        at: at(3),
      }),
      event('DonationRefunded', {
        donationId: 'pi_2',
        fundraiserId: 'f-1',
        amountCents: 3000,
        currency: 'USD',
        donatedAt: at(3),
        at: at(4),
      }),
    ]);
    await eventStore.appendToStream('donation-report-r-1', [
      event('DonationReported', {
        reportId: 'r-1',
        fundraiserId: 'f-1',
        amountCents: 100_000,
        currency: 'USD',
        source: 'widget',
        idempotencyKey: null,
        confirmedBy: null,
        at: at(3),
      }),
    ]);
    await eventStore.appendToStream(
      'scans-p0',
      [1, 2, 2, 3].map((day, i) =>
        event('ScanRecorded', {
          scanId: `s-${i}`,
          fundraiserId: 'f-1',
          at: at(day),
          visitorHash: `v-${i}`,
          addressHash: 'a-1',
          bot: false,
          counted: true,
        }),
      ),
    );
    await eventStore.close();
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  /** What the same replay answers in this process, straight from the store. */
  async function inProcess(
    groupBy: 'charity' | 'fundraiser',
    format: 'ndjson' | 'csv',
    from?: string,
  ): Promise<string> {
    const eventStore = createSqliteEventStore({ path: path.join(dataDir, 'events.sqlite') });
    try {
      return formatReplay(await replayDonations({ eventStore, groupBy, window: replayWindow({ from }) }), format);
    } finally {
      await eventStore.close();
    }
  }

  it('writes the replay to stdout, and only the replay', async () => {
    const run = await runCli(['--group-by', 'charity', '--format', 'ndjson'], store());
    expect(run).toEqual({ status: 0, stdout: await inProcess('charity', 'ndjson'), stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({
      charityId: 'c-1',
      charity: 'Water, Now',
      scans: 4,
      donations: 2,
      gross: 49.5,
      refunds: 30,
      disputes: 0,
      amountRaised: 19.5,
      fees: 0.5,
      platformFees: 0.35,
      net: 19,
      fundraisers: 1,
    });
  });

  it('writes to --out instead, with the window applied', async () => {
    const out = path.join(dataDir, 'by-fundraiser.csv');
    const run = await runCli(['--group-by', 'fundraiser', '--from', '2025-03-02', '--out', out], store());
    expect(run).toEqual({ status: 0, stdout: '', stderr: '' });
    const written = await readFile(out, 'utf8');
    expect(written).toBe(await inProcess('fundraiser', 'csv', '2025-03-02'));
    expect(written.split('\r\n')[1]).toBe("f-1,'=1+1,c-1,s-1,3,2,49.50,30.00,0.00,19.50,0.50,0.35,19.00,1");
  });

  it('answers a bad argument with one line and exit code 2, and --help with the usage', async () => {
    const bad = await runCli(['--group-by', 'month'], store());
    expect(bad).toEqual({
      status: 2,
      stdout: '',
      stderr: 'replay-donations: --group-by must be one of day, charity, fundraiser, shirt, got "month" (see --help)\n',
    });
    const help = await runCli(['--help'], store());
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run -s replay-donations -- \[options\]\n/);
    expect(help.stdout).toContain('--as-of DATE');
  });

  it('refuses to replay a store that is not there rather than report an empty one', async () => {
    const missing = path.join(dataDir, 'nowhere');
    const run = await runCli([], { DATA_DIR: missing, EVENTSTORE_URL: '' });
    expect(run).toEqual({
      status: 2,
      stdout: '',
      stderr: `replay-donations: no event store at ${path.join(missing, 'events.sqlite')} (set DATA_DIR, or EVENTSTORE_URL)\n`,
    });
  });
});
