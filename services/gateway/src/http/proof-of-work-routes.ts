import type { proofOfWorkRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from './route-table';
import type { ProofOfWork } from './proof-of-work';

export function proofOfWorkHandlers({
  proofOfWork,
}: {
  proofOfWork: ProofOfWork;
}): HandlersOf<typeof proofOfWorkRoutes> {
  return {
    async getChallenge() {
      // Each challenge is good for one solution: a cached one would be spent already.
      return { status: 200, body: await proofOfWork.challenge(), headers: { 'Cache-Control': 'no-store' } };
    },
  };
}
