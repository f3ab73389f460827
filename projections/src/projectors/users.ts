import type { Projector } from './projector';
import { hsetFields } from './hash-fields';

export const userKeys = { user: (id: string) => `user:${id}` };

export const usersProjector: Projector = {
  name: 'users',
  eventTypes: ['UserRegistered', 'UserProfileUpdated'],
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
      default:
        return [];
    }
  },
};
