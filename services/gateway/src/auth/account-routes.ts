import type { userRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import { clientAddress } from '../http/client-limits';
import type { EmailChange } from './email-change';

/**
 * Moving to another address: it mails a link and is counted against the client's address too.
 * Profiles, closing an account and its data's download are the users module's.
 */
export function accountHandlers({
  emailChange,
}: {
  emailChange: EmailChange;
}): HandlersOf<Pick<typeof userRoutes, 'changeEmail'>> {
  return {
    async changeEmail({ params, body, user, req }) {
      await emailChange.request(params.id, user, body.email, clientAddress(req));
      return { status: 202 };
    },
  };
}
