import { randomUUID } from 'node:crypto';
import { demoDonation, type DemoDonation, donation, fundraiserStats, type FundraiserStats } from '@qrshirt/contracts';
import type { AuthSession } from '@qrshirt/contracts';
import { waitFor } from '@qrshirt/test-support';

/**
 * A donation as the demo widget and the page make it, without a browser: the demo processor takes
 * it (and confirms it with its signed webhook), then the page reports it under the widget's name for it.
 */
export async function demoDonate(appUrl: string, fundraiserId: string, amount: number): Promise<DemoDonation> {
  const reference = randomUUID();
  const charged = await fetch(`${appUrl}/api/demo-processor/donations`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ fundraiserId, amount, reference }),
  });
  if (charged.status !== 202) throw new Error(`the demo processor answered ${charged.status}: ${await charged.text()}`);
  const reported = await fetch(`${appUrl}/api/fundraisers/${fundraiserId}/donate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': reference },
    body: JSON.stringify({ amount }),
  });
  if (reported.status !== 201) throw new Error(`the report answered ${reported.status}: ${await reported.text()}`);
  donation.parse(await reported.json());
  return demoDonation.parse(await charged.json());
}

/** The owner's figures as the API answers them. */
export async function ownerStats(appUrl: string, fundraiserId: string, session: AuthSession): Promise<FundraiserStats> {
  const answer = await fetch(`${appUrl}/api/fundraisers/${fundraiserId}/stats`, {
    headers: { Authorization: `Bearer ${session.accessToken}`, 'x-user-id': session.user.uid },
  });
  if (answer.status !== 200) throw new Error(`stats answered ${answer.status}: ${await answer.text()}`);
  return fundraiserStats.parse(await answer.json());
}

/** Polls until `check` holds for the owner's figures; answers them. */
export function ownerStatsUntil(
  appUrl: string,
  fundraiserId: string,
  session: AuthSession,
  check: (stats: FundraiserStats) => boolean,
): Promise<FundraiserStats> {
  return waitFor("the owner's figures to settle", () => ownerStats(appUrl, fundraiserId, session), check, {
    intervalMs: 100,
  });
}
