import { createHash } from 'node:crypto';
import type { EventOf } from '@qrshirt/contracts';
import { type Decider, DomainError } from '../event-sourcing/decider';
import { parseAmountCents } from './donation-amount';

/** The widget's report: POST /api/fundraisers/{id}/donate. */
export interface ReportDonation {
  type: 'ReportDonation';
  reportId: string;
  fundraiserId: string;
  /** As the widget sent it: parsed here by the spec's rule (see parseAmountCents). */
  amount: unknown;
  idempotencyKey: string | null;
  /** Where the donation was reported from, e.g. 'widget'. */
  source: string;
  at: string;
}

/** A processor's confirmed donation named this report. */
export interface ConfirmReport {
  type: 'ConfirmReport';
  reportId: string;
  /** The confirmed donation's fundraiser, for a report that has not arrived yet. */
  fundraiserId: string;
  donationId: string;
  at: string;
}

export type DonationReportCommand = ReportDonation | ConfirmReport;
export type DonationReportEvent = EventOf<'DonationReported'> | EventOf<'DonationReportConfirmed'>;

export interface DonationReportState {
  /** Null while only a confirmation has arrived. */
  report: { fundraiserId: string; amountCents: number } | null;
  /** The processor's donation that confirmed it; null while it awaits confirmation. */
  confirmedBy: string | null;
}

export const donationReportStreamName = (reportId: string): string => `donation-report-${reportId}`;

/**
 * The report id of a keyed report: the same fundraiser and Idempotency-Key always give the same
 * id, so a retry lands in the same stream (and two concurrent ones append the same event id).
 * UUID-shaped, as EventStoreDB wants event ids.
 */
export function reportIdFor(fundraiserId: string, idempotencyKey: string): string {
  const hex = createHash('sha256').update(`${fundraiserId}\u0000${idempotencyKey}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * One reported donation per stream, so deciding on it never reads more than two events. The
 * stream starts with whichever comes first, the report or its confirmation (a processor's webhook
 * may overtake the page that reports): a report that arrives confirmed awaits nothing.
 */
export const donationReportDecider: Decider<DonationReportCommand, DonationReportEvent, DonationReportState | null> = {
  initialState: () => null,

  decide(command, state) {
    switch (command.type) {
      case 'ReportDonation': {
        const amountCents = parseAmountCents(command.amount);
        if (state?.report) {
          if (state.report.amountCents !== amountCents) {
            throw new DomainError('conflict', 'Idempotency-Key was already used with a different amount');
          }
          return [];
        }
        return [
          {
            type: 'DonationReported',
            data: {
              reportId: command.reportId,
              fundraiserId: command.fundraiserId,
              amountCents,
              currency: 'USD',
              source: command.source,
              idempotencyKey: command.idempotencyKey,
              confirmedBy: state?.confirmedBy ?? null,
              at: command.at,
            },
          },
        ];
      }
      case 'ConfirmReport': {
        if (state?.confirmedBy) return [];
        return [
          {
            type: 'DonationReportConfirmed',
            data: {
              reportId: command.reportId,
              fundraiserId: state?.report?.fundraiserId ?? command.fundraiserId,
              donationId: command.donationId,
              pendingCents: state?.report?.amountCents ?? 0,
              at: command.at,
            },
          },
        ];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DonationReported':
        return {
          report: { fundraiserId: event.data.fundraiserId, amountCents: event.data.amountCents },
          confirmedBy: state?.confirmedBy ?? event.data.confirmedBy,
        };
      case 'DonationReportConfirmed':
        return { report: state?.report ?? null, confirmedBy: event.data.donationId };
    }
  },
};
