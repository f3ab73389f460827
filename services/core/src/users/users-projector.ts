import type { Projector } from '../kit/projector';
import { hsetFields } from '../kit/hash-fields';

export const userKeys = {
  user: (id: string) => `user:${id}`,
  /** field: a user id; value: whether they want the daily summary mail (false once they stopped it) */
  dailySummary: 'daily-summary',
  /** Set once the account is closed: tokens handed out before are refused from then on. */
  closed: (id: string) => `closed:${id}`,
};

export const usersProjector: Projector = {
  name: 'users',
  eventTypes: ['UserRegistered', 'UserProfileUpdated', 'DailySummarySet', 'UserAccountClosed'],
  project(event) {
    switch (event.type) {
      case 'UserRegistered': {
        const { userId, email, displayName, photoURL, at } = event.data;
        return hsetFields(userKeys.user(userId), { uid: userId, email, displayName, photoURL, createdAt: at });
      }
      case 'UserProfileUpdated': {
        const { userId, displayName, photoURL, email } = event.data;
        return hsetFields(userKeys.user(userId), { displayName, photoURL, email });
      }
      case 'DailySummarySet': {
        const { userId, enabled } = event.data;
        return [
          ...hsetFields(userKeys.user(userId), { dailySummary: enabled }),
          ...hsetFields(userKeys.dailySummary, { [userId]: enabled }),
        ];
      }
      case 'UserAccountClosed': {
        const { userId } = event.data;
        return [
          { op: 'del', key: userKeys.user(userId) },
          ...hsetFields(userKeys.dailySummary, { [userId]: false }),
          { op: 'set', key: userKeys.closed(userId), value: '1' },
        ];
      }
      default:
        return [];
    }
  },
};
