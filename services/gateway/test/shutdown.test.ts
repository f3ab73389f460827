import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  countByStatus,
  createApiClient,
  createFundraiser,
  type GatewayProcess,
  newClient,
  signUp,
  startGatewayProcess,
  startScanLoad,
  waitFor,
} from '@qrshirt/test-support';
import { sendWebhook, succeeded } from './support/webhooks';

/**
 * Donors reporting one donation after another, each confirmed by the processor's webhook once its
 * report was taken, until told to stop; the ids of the reports (201) and confirmations (200) kept.
 */
function startDonations(url: string, fundraiserId: string, donors: number) {
  const accepted: string[] = [];
  const confirmed: string[] = [];
  let stopped = false;
  const api = createApiClient(url);
  const donor = async () => {
    while (!stopped) {
      try {
        // Donors of their own: one address may report 60 donations a minute.
        const answer = await api('POST', `/api/fundraisers/${fundraiserId}/donate`, {
          body: { amount: 2 },
          headers: newClient(),
        });
        if (answer.status !== 201) continue;
        accepted.push(answer.body.id);
        const event = succeeded({ fundraiserId, amount: 2, reportId: answer.body.id });
        const webhook = await sendWebhook(api, event);
        if (webhook.status === 200) confirmed.push(event.data.donationId as string);
      } catch {
        // The gateway stopped listening: nothing more will be accepted.
        return;
      }
    }
  };
  const done = Promise.all(Array.from({ length: donors }, donor));
  return {
    accepted,
    confirmed,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

const count = (ids: readonly string[]) => {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
};

describe('the embedded process stopped by SIGTERM under load', () => {
  let dataDir: string;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-sigterm-'));
  });
  afterAll(async () => {
    await gateway?.terminate();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('exits within 10 s, and every scan and donation it acknowledged is stored exactly once', async () => {
    gateway = await startGatewayProcess({ DATA_DIR: dataDir });
    const api = createApiClient(gateway.url);
    const owner = await signUp(api);
    const fundraiser = await createFundraiser(api, as(owner));
    const scans = startScanLoad({
      url: gateway.url,
      fundraiserIds: [fundraiser.id],
      concurrency: 32,
      total: 1_000_000,
    });
    const donations = startDonations(gateway.url, fundraiser.id, 4);
    await waitFor(
      '500 scans acknowledged',
      () => countByStatus(scans.answers)[202] ?? 0,
      (acknowledged) => acknowledged >= 500,
    );

    const signalledAt = Date.now();
    const exitCode = await gateway.terminate();
    console.log(`the gateway stopped ${Date.now() - signalledAt} ms after SIGTERM`);
    await Promise.all([scans.stop(), donations.stop()]);
    gateway = undefined;
    // 0 only when its drain ended within its own deadline (9 s, by its clock), before Docker's SIGKILL.
    expect(exitCode).toBe(0);

    const acknowledgedScans = scans.answers.filter((answer) => answer.status === 202).map((answer) => answer.scanId!);
    expect(acknowledgedScans.length).toBeGreaterThan(500);
    expect(donations.accepted.length).toBeGreaterThan(0);
    expect(donations.confirmed.length).toBeGreaterThan(0);

    // What a restarted process finds in the store it left.
    const store = createSqliteEventStore({ path: path.join(dataDir, 'events.sqlite') });
    const stored = await store.readAll({
      eventTypes: ['ScanRecorded', 'DonationReported', 'DonationConfirmed', 'DonationReportConfirmed'],
    });
    await store.close();
    const ids = (type: string, field: string) =>
      count(
        stored.filter((event) => event.type === type).map((event) => (event.data as Record<string, string>)[field]!),
      );
    const storedScans = ids('ScanRecorded', 'scanId');
    const storedReports = ids('DonationReported', 'reportId');
    const storedDonations = ids('DonationConfirmed', 'donationId');
    const settled = ids('DonationReportConfirmed', 'reportId');
    expect(acknowledgedScans.filter((id) => storedScans.get(id) !== 1)).toEqual([]);
    expect(donations.accepted.filter((id) => storedReports.get(id) !== 1)).toEqual([]);
    expect(donations.confirmed.filter((id) => storedDonations.get(id) !== 1)).toEqual([]);
    expect([...storedScans.values()].every((times) => times === 1)).toBe(true);
    expect([...settled.values()].every((times) => times === 1)).toBe(true);
    const awaiting = [...storedReports.keys()].filter((id) => !settled.has(id)).length;

    // And the restarted process counts exactly what is stored.
    gateway = await startGatewayProcess({ DATA_DIR: dataDir });
    const stats = await createApiClient(gateway.url)('GET', `/api/fundraisers/${fundraiser.id}/stats`, {
      token: owner.accessToken,
    });
    // Each scan of the load is a person of their own (startScanLoad), counted once.
    expect(stats.body).toMatchObject({
      scans: storedScans.size,
      scanRequests: storedScans.size,
      donations: storedDonations.size,
      amountRaised: 2 * storedDonations.size,
      amountReported: 2 * awaiting,
    });
  });
});
