import type { AdminAuditEntry, AdminAuditPage } from '@qrshirt/contracts';
import { DomainError } from '../kit/decider';
import type { ReadModelStore } from '../ports/read-model-store';
import { adminAuditKeys, adminAuditProjector, auditDayOf } from './admin-audit-projector';

/**
 * The audit trail, newest first: by day, and within a day by log position. A page reads the set
 * of days and the days it shows (from the one of its `after`), never the whole trail.
 */
export function createAdminAuditQueries(store: ReadModelStore) {
  const audit = store.projection(adminAuditProjector.name);
  return {
    async page({ after, limit }: { after?: number | undefined; limit: number }): Promise<AdminAuditPage> {
      let fromDay: string | undefined;
      if (after !== undefined) {
        const cursor = await audit.get(adminAuditKeys.entry(after));
        if (cursor === null) throw new DomainError('validation', 'after must be the next of a previous page');
        fromDay = auditDayOf((JSON.parse(cursor) as AdminAuditEntry).at);
      }
      const days = (await audit.smembers(adminAuditKeys.days))
        .filter((day) => fromDay === undefined || day <= fromDay)
        .sort()
        .reverse();
      const positions: number[] = [];
      let more = false;
      for (const [index, day] of days.entries()) {
        const onDay = Object.keys(await audit.hgetall(adminAuditKeys.day(day)))
          .map(Number)
          .filter((position) => day !== fromDay || after === undefined || position < after)
          .sort((a, b) => b - a);
        const wanted = limit - positions.length;
        positions.push(...onDay.slice(0, wanted));
        if (positions.length === limit) {
          // Every day in the set has an entry: an earlier day means more.
          more = onDay.length > wanted || index < days.length - 1;
          break;
        }
      }
      const stored = await audit.mget(positions.map(adminAuditKeys.entry));
      const entries = stored.flatMap((json) => (json === null ? [] : [JSON.parse(json) as AdminAuditEntry]));
      return { entries, next: more ? (positions.at(-1) ?? null) : null };
    },
  };
}
export type AdminAuditQueries = ReturnType<typeof createAdminAuditQueries>;
