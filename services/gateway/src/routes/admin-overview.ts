import { adminOverviewQuery } from '@qrshirt/contracts';
import { Router } from 'express';
import { parseInput } from '../http/validate';
import type { AdminDeps } from './admin-deps';

export function adminOverviewRoutes({ admin }: { admin: AdminDeps }): Router {
  return Router().get('/api/admin/overview', async (req, res) => {
    const { top } = parseInput(adminOverviewQuery, req.query);
    res.json(await admin.overview.getOverview(top));
  });
}
