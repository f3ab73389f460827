import type { adminOutboxRoutes } from '@qrshirt/contracts';
import { HttpError, notFound } from '../http/http-error';
import type { HandlersOf } from '../http/route-table';
import type { AdminDeps } from './admin-deps';

/** The mail outbox as admins see it (addresses masked), and a retry for a stuck or dead message. */
export function adminOutboxHandlers({ admin }: { admin: AdminDeps }): HandlersOf<typeof adminOutboxRoutes> {
  return {
    async listOutbox({ query }) {
      return { status: 200, body: await admin.outbox.list(query) };
    },
    async retryOutboxMessage({ params }) {
      const message = await admin.outbox.retry(params.id);
      if (message === null) throw notFound('Message');
      if (message === 'sent') throw new HttpError(409, 'This message was sent already');
      return { status: 200, body: message };
    },
  };
}
