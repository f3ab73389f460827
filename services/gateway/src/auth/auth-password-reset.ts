import type { passwordResetRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import { clientAddress } from '../http/client-limits';
import type { AuthContext } from './auth-context';

export function passwordResetHandlers({ passwordReset }: AuthContext): HandlersOf<typeof passwordResetRoutes> {
  return {
    async requestPasswordReset({ body, req }) {
      await passwordReset.request(body, clientAddress(req));
      return { status: 202 };
    },
    async confirmPasswordReset({ body, req }) {
      await passwordReset.confirm(body, clientAddress(req));
      return { status: 204 };
    },
  };
}
