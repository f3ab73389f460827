import type { FundraiserStats, UnsubscribeAnswer, UserStats } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import { DomainError } from '../kit/decider';
import type { SummaryOwners } from '../ports/summary-owners';
import { type DailySummary, dueDay, summariseDay } from './daily-summary';
import { createUnsubscribeTokens } from './unsubscribe-token';

/** What a daily summary mail says; the gateway renders it and stores it in the outbox. */
export interface DailySummaryMail {
  userId: string;
  to: string;
  displayName: string | null;
  summary: DailySummary;
  /** For the unsubscribe link, which works without signing in. */
  unsubscribeToken: string;
}

export interface OwnerMailDeps {
  /** The owners, as their accounts' streams have them. */
  owners: SummaryOwners;
  /** An owner's figures and each fundraiser's, from the fundraisers' read model. */
  fundraisers: {
    getUserStats(this: void, userId: string): Promise<UserStats>;
    getStats(this: void, id: string): Promise<FundraiserStats>;
  };
  /** Who asked for the summary, as the read model has it (each is checked against the log). */
  subscribers(this: void): Promise<string[]>;
  /** The account's address and whether its holder proved it is theirs. */
  addressOf(this: void, uid: string): Promise<{ email: string | null; verified: boolean }>;
  /** A keyed hash under the server's secret, for unsubscribe tokens. */
  sign(this: void, text: string): string;
  /**
   * Stores the mail in the outbox, once per owner and day whichever process or run asks: a copy
   * stored already (before a restart, by another gateway) is not stored again.
   */
  sendDailySummary(this: void, mail: DailySummaryMail): Promise<void>;
  clock: Clock;
}

export const INVALID_UNSUBSCRIBE_LINK =
  'This unsubscribe link is not valid. Turn the daily summary off in your profile.';

/**
 * Owner mail: a summary, on the morning after each day an owner's shirts were scanned or raised
 * money, to owners who asked for it in their profile and verified their address.
 */
export function createOwnerMailUseCases({
  owners,
  fundraisers,
  subscribers,
  addressOf,
  sign,
  sendDailySummary,
  clock,
}: OwnerMailDeps) {
  const tokens = createUnsubscribeTokens(sign);
  // The day this process has mailed every summary of: later runs that day have nothing to do.
  let doneDay: string | null = null;
  let running: Promise<number> | null = null;

  async function summaryOf(userId: string, day: string): Promise<DailySummary | null> {
    const { fundraiserStats } = await fundraisers.getUserStats(userId);
    const shirts = await Promise.all(
      fundraiserStats.map(async ({ id, name }) => ({
        fundraiserId: id,
        name,
        daily: (await fundraisers.getStats(id)).daily,
      })),
    );
    return summariseDay(day, shirts);
  }

  async function mailOwner(userId: string, day: string): Promise<boolean> {
    // The read model may not have seen an unsubscribe of a moment ago; the log has.
    const user = await owners.find(userId);
    if (!user?.dailySummary) return false;
    const { email, verified } = await addressOf(userId);
    if (!email || !verified) return false;
    const summary = await summaryOf(userId, day);
    if (!summary) return false;
    await sendDailySummary({
      userId,
      to: email,
      displayName: user.displayName,
      summary,
      unsubscribeToken: tokens.tokenFor(userId),
    });
    return true;
  }

  async function sendDue(): Promise<number> {
    const day = dueDay(clock());
    if (day === doneDay) return 0;
    let mailed = 0;
    for (const userId of await subscribers()) {
      if (await mailOwner(userId, day)) mailed += 1;
    }
    // Only once every owner was handled: a run that failed half way is tried again.
    doneDay = day;
    return mailed;
  }

  return {
    /**
     * Mails the summaries of the last day that ended, unless this process did already; answers how
     * many it handed to the outbox. Runs that overlap share one pass.
     */
    sendDueSummaries(): Promise<number> {
      running ??= sendDue().finally(() => {
        running = null;
      });
      return running;
    },

    /** The link's owner gets no more summaries: 404 for a token we did not sign. */
    async unsubscribe(token: string): Promise<UnsubscribeAnswer> {
      const userId = tokens.userIdOf(token);
      if (!userId) throw new DomainError('not_found', INVALID_UNSUBSCRIBE_LINK);
      await owners.stopDailySummary(userId, clock().toISOString());
      return { dailySummary: false };
    },
  };
}
export type OwnerMailUseCases = ReturnType<typeof createOwnerMailUseCases>;
