import { idParams, syncUserRequest, updateProfileRequest } from '@qrshirt/contracts';
import { type UserState, userDecider, userStreamName } from '@qrshirt/core';
import { Router } from 'express';
import { requireSelf, requireSignedIn } from '../auth/authenticate';
import { HttpError, notFound } from '../http/http-error';
import { parseInput } from '../http/validate';
import type { RouteDeps } from './route-deps';

const toUser = (uid: string, state: UserState) => ({
  uid,
  displayName: state.displayName ?? null,
  email: state.email ?? null,
  photoURL: state.photoURL ?? null,
});

export function userRoutes({ commands, fundraisers, clock }: RouteDeps): Router {
  return Router()
    .post('/api/user', requireSignedIn, async (req, res) => {
      const input = parseInput(syncUserRequest, req.body);
      if (input.uid !== req.user!.uid) throw new HttpError(403, 'You can only sync your own profile');
      const profile = {
        displayName: input.displayName ?? null,
        email: input.email ?? null,
        photoURL: input.photoURL ?? null,
      };
      const { state } = await commands.handle(userStreamName(input.uid), userDecider, (current) =>
        current
          ? { type: 'UpdateProfile', userId: input.uid, ...profile, at: clock().toISOString() }
          : { type: 'RegisterUser', userId: input.uid, ...profile, method: 'password', at: clock().toISOString() },
      );
      res.json({
        uid: input.uid,
        displayName: state?.displayName ?? null,
        email: state?.email ?? null,
        photoURL: state?.photoURL ?? null,
      });
    })
    .get('/api/user/:id', async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      requireSelf(id, req.user);
      // From the user's own stream, not the read model: only they read it, and right after a
      // change of their profile they must see it, not the projection's previous copy.
      const user = await commands.loadState(userStreamName(id), userDecider);
      if (!user) throw notFound('User');
      res.json(toUser(id, user));
    })
    .patch('/api/user/:id', async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      requireSelf(id, req.user);
      const { displayName, photoURL } = parseInput(updateProfileRequest, req.body);
      const { state } = await commands.handle(userStreamName(id), userDecider, () => ({
        type: 'UpdateProfile',
        userId: id,
        ...(displayName !== undefined && { displayName }),
        ...(photoURL !== undefined && { photoURL }),
        at: clock().toISOString(),
      }));
      res.json(toUser(id, state!));
    })
    .get('/api/user/:id/stats', async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      requireSelf(id, req.user);
      res.json(await fundraisers.getUserStats(id));
    });
}
