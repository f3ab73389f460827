import { Router } from 'express';
import type { AuthContext } from './auth-context';

/** What the development outbox holds (SMS codes, reset links); absent outside development and test. */
export function devOutboxRoutes({ outbox }: AuthContext): Router {
  const router = Router();
  if (!outbox) return router;
  return router.get('/api/dev/outbox', (_req, res) => {
    res.json({ messages: outbox.messages() });
  });
}
