import { adminOutboxQuery, idParams } from '@qrshirt/contracts';
import { Router } from 'express';
import { HttpError, notFound } from '../http/http-error';
import { parseInput } from '../http/validate';
import type { AdminDeps } from './admin-deps';

/** The mail outbox as admins see it (addresses masked), and a retry for a stuck or dead message. */
export function adminOutboxRoutes({ admin }: { admin: AdminDeps }): Router {
  return Router()
    .get('/api/admin/outbox', async (req, res) => {
      res.json(await admin.outbox.list(parseInput(adminOutboxQuery, req.query)));
    })
    .post('/api/admin/outbox/:id/retry', async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      const message = await admin.outbox.retry(id);
      if (message === null) throw notFound('Message');
      if (message === 'sent') throw new HttpError(409, 'This message was sent already');
      res.json(message);
    });
}
