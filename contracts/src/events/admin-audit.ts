import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

/**
 * What an operator did that showed people's names and emails in clear, or took them away in a
 * file. Erasing a person is not among them: its `UserAccountClosed` names the operator already.
 */
export const adminDataAccessActions = [
  'reveal-events',
  'list-waitlist-entries',
  'download-waitlist-csv',
  'download-replay',
] as const;
export type AdminDataAccessAction = (typeof adminDataAccessActions)[number];

/**
 * Appended to `admin-audit-<yyyy-mm-dd>` (the day of `at`) before the data is answered, so no
 * reveal or download goes unrecorded. `subject` holds the request's filters and parameters as
 * text, never the names or emails it showed: the log keeps this event for good, erasure or not.
 */
export const AdminDataAccessed = defineEvent(
  'AdminDataAccessed',
  z.object({
    adminId: z.string().min(1),
    action: z.enum(adminDataAccessActions),
    subject: z.record(z.string(), z.string()),
    at: isoInstant,
  }),
);
