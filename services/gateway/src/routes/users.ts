import type { Handlers } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function userHandlers({
  useCases,
}: RouteDeps): Pick<Handlers, 'syncUser' | 'getUser' | 'updateProfile' | 'closeAccount' | 'getUserStats'> {
  const { users, fundraisers, accountClosing } = useCases;
  return {
    async syncUser({ body, user }) {
      return { status: 200, body: await users.sync(body, user) };
    },
    async getUser({ params, user }) {
      return { status: 200, body: await users.get(params.id, user) };
    },
    async updateProfile({ params, body, user }) {
      return { status: 200, body: await users.updateProfile(params.id, body, user) };
    },
    async closeAccount({ params, body, user }) {
      await accountClosing.closeOwn(params.id, user, body);
      return { status: 204 };
    },
    async getUserStats({ params, user }) {
      return { status: 200, body: await fundraisers.userStats(params.id, user) };
    },
  };
}
