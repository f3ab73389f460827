import type { fundraiserRoutes, userStatsRoutes } from '@qrshirt/contracts';
import type { FeatureModule } from '../kit/feature-module';
import type { FeatureHandlers } from '../kit/route-handler';
import { fundraisersProjector } from './fundraisers-projector';
import { createFundraiserUseCases, type FundraiserUseCaseDeps } from './fundraiser-use-cases';

/*
 * GET's answer says whether the fundraiser is the caller's: no shared cache may keep one caller's
 * answer for another, nor a browser one session's for the next without asking again.
 */
const perCallerAnswer = { 'Cache-Control': 'private, no-cache', Vary: 'Authorization' };

/**
 * The fundraisers feature as the composition root mounts it: its use cases, and the handlers of
 * its routes that need nothing but them. Its QR images, its live stats and the scan's front door
 * write to the response themselves: their handlers are the gateway's.
 */
export function fundraisersModule(deps: FundraiserUseCaseDeps) {
  const useCases = createFundraiserUseCases(deps);
  const handlers: FeatureHandlers<typeof fundraiserRoutes & typeof userStatsRoutes> = {
    async createFundraiser({ body, user, headers }) {
      const { created, fundraiser } = await useCases.create(user.uid, body, headers['idempotency-key']);
      return { status: created ? 201 : 200, body: fundraiser };
    },
    async getFundraiser({ params, user }) {
      return { status: 200, body: await useCases.details(params.id, user), headers: perCallerAnswer };
    },
    async updateFundraiser({ params, body, user }) {
      return { status: 200, body: await useCases.update(params.id, user, body) };
    },
    async getFundraiserStats({ params, user }) {
      return { status: 200, body: await useCases.stats(params.id, user) };
    },
    async getAdminFundraiserStats({ params }) {
      return { status: 200, body: await useCases.statsForOperator(params.id) };
    },
    async getUserStats({ params, user }) {
      return { status: 200, body: await useCases.userStats(params.id, user) };
    },
  };
  return { name: 'fundraisers', handlers, projectors: [fundraisersProjector], useCases } satisfies FeatureModule;
}

export type FundraisersModule = ReturnType<typeof fundraisersModule>;
