import type { AdminAuditEntry } from '@qrshirt/contracts';
import type { Projector } from '../kit/projector';

/** An entry's UTC day, which files it: `yyyy-mm-dd`. */
export const auditDayOf = (at: string): string => new Date(at).toISOString().slice(0, 10);

/**
 * The audit trail, filed by UTC day so that a page reads the days it shows and no more: the store
 * has no ordered index, and one hash of every entry would be read whole on every page.
 */
export const adminAuditKeys = {
  /** Every day with an entry. */
  days: 'days',
  /** field: the log position of each of the day's entries; value: 1. */
  day: (day: string) => `day:${day}`,
  /** The entry itself, as the list shows it (JSON). */
  entry: (position: number) => `entry:${position}`,
};

export const adminAuditProjector: Projector = {
  name: 'admin-audit',
  eventTypes: ['AdminDataAccessed', 'UserAccountClosed'],
  project(event, { globalPosition }) {
    let entry: AdminAuditEntry;
    switch (event.type) {
      case 'AdminDataAccessed': {
        const { adminId, action, subject, at } = event.data;
        entry = { position: globalPosition, at, adminId, action, subject };
        break;
      }
      case 'UserAccountClosed': {
        // People closing their own accounts are no operator's doing; an erasure always names its operator.
        const { userId, by, adminId, at } = event.data;
        if (by !== 'admin' || adminId === undefined) return [];
        entry = { position: globalPosition, at, adminId, action: 'erase-user', subject: { userId } };
        break;
      }
      default:
        return [];
    }
    const day = auditDayOf(entry.at);
    return [
      { op: 'set', key: adminAuditKeys.entry(globalPosition), value: JSON.stringify(entry) },
      { op: 'hset', key: adminAuditKeys.day(day), field: String(globalPosition), value: '1' },
      { op: 'sadd', key: adminAuditKeys.days, member: day },
    ];
  },
};
