import { z } from 'zod';
import { adminDataAccessActions } from '../events/admin-audit';

/*
 * GET /api/admin/audit: who revealed, downloaded or erased people's data, and when.
 */

/** The operators' actions the audit trail lists: each access to data in clear, and each erasure. */
export const adminAuditActions = [...adminDataAccessActions, 'erase-user'] as const;
export type AdminAuditAction = (typeof adminAuditActions)[number];

export const adminAuditEntry = z
  .object({
    /** The log position of the event that records it. */
    position: z.number().int(),
    /** When the operator did it (the gateway's clock). */
    at: z.string(),
    /** The operator's user id. */
    adminId: z.string(),
    action: z.enum(adminAuditActions),
    /**
     * What it concerned: the filters and parameters of the request (`reveal-events`,
     * `list-waitlist-entries`, `download-replay`; none for the whole waitlist's CSV), or the erased
     * person's `userId`. Never the names or emails shown.
     */
    subject: z.record(z.string(), z.string()),
  })
  .meta({ id: 'AdminAuditEntry' });
export type AdminAuditEntry = z.infer<typeof adminAuditEntry>;

export const adminAuditPage = z
  .object({
    /** Newest first. */
    entries: z.array(adminAuditEntry),
    /** Pass as `after` for the next page; null on the last one. */
    next: z.number().int().nullable(),
  })
  .meta({ id: 'AdminAuditPage' });
export type AdminAuditPage = z.infer<typeof adminAuditPage>;
