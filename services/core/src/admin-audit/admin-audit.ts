import { type AdminDataAccessAction, eventMetadata } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { EventStore } from '../kit/event-store';

/** One stream per UTC day: appends need no decision, so no stream is read, and none grows for ever. */
const adminAuditStreamName = (at: Date): string => `admin-audit-${at.toISOString().slice(0, 10)}`;

/** The audit trail could not record an access: the access must not happen (503). */
export class AuditUnavailableError extends Error {
  constructor(options?: ErrorOptions) {
    super('The audit trail cannot record this right now, so nothing is shown. Please try again in a moment.', options);
    this.name = 'AuditUnavailableError';
  }
}

/** A request's filters and parameters as given; those left out are not recorded. */
export type AuditSubject = Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;

/** As text, for the list to show: several values (event types) comma-separated, as in the query string. */
function asText(subject: AuditSubject): Record<string, string> {
  return Object.fromEntries(
    Object.entries(subject).flatMap(([key, value]) =>
      value === undefined ? [] : [[key, typeof value === 'object' ? value.join(',') : String(value)]],
    ),
  );
}

export interface AdminAudit {
  /**
   * Records that an operator is about to see names and emails in clear, or download them; resolves
   * once stored, and rejects with AuditUnavailableError when it could not be, before anything is shown.
   */
  record(adminId: string, action: AdminDataAccessAction, subject: AuditSubject): Promise<void>;
}

export function createAdminAudit({ eventStore, clock }: { eventStore: EventStore; clock: Clock }): AdminAudit {
  return {
    async record(adminId, action, subject) {
      const at = clock();
      const event = {
        type: 'AdminDataAccessed',
        data: { adminId, action, subject: asText(subject), at: at.toISOString() },
      };
      try {
        await eventStore.appendToStream(
          adminAuditStreamName(at),
          [{ ...event, metadata: eventMetadata('AdminDataAccessed') }],
          { expectedRevision: 'any' },
        );
      } catch (error) {
        throw new AuditUnavailableError({ cause: error });
      }
    },
  };
}
