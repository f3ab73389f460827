import type { phoneSignInRoutes } from '@qrshirt/contracts';
import { sessionAnswer } from './refresh-cookie';
import { type HandlersOf, unavailable } from '../http/route-table';
import { clientAddress } from '../http/client-limits';
import type { AuthContext } from './auth-context';

const notConfigured = unavailable('Phone sign-in is not configured');

export function phoneHandlers({ phone }: AuthContext): HandlersOf<typeof phoneSignInRoutes> {
  if (!phone) return { startPhoneSignIn: notConfigured, confirmPhoneSignIn: notConfigured };
  return {
    async startPhoneSignIn({ body, req }) {
      return { status: 202, body: await phone.start(body, clientAddress(req)) };
    },
    async confirmPhoneSignIn({ body, req, res }) {
      return { status: 200, body: sessionAnswer(res, await phone.confirm(body, clientAddress(req))) };
    },
  };
}
