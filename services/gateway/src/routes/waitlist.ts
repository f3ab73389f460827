import { joinWaitlistRequest } from '@qrshirt/contracts';
import {
  charityDecider,
  charityStreamName,
  findWaitlistEntry,
  shirtDecider,
  shirtStreamName,
  waitlistDecider,
  waitlistStreamName,
} from '@qrshirt/core';
import { Router } from 'express';
import { parseInput } from '../http/validate';
import type { RouteDeps } from './route-deps';

export function waitlistRoutes({ commands, waitlist, clock, newId }: RouteDeps): Router {
  return Router()
    .get('/api/waitlist', async (_req, res) => {
      res.json(await waitlist.getStats());
    })
    .post('/api/waitlist', async (req, res) => {
      const input = parseInput(joinWaitlistRequest, req.body);
      // The shirt's sizes and the charity's existence are checked against the event log, not a
      // read model that may lag behind a shirt or charity created a moment ago.
      const [shirt, charity] = await Promise.all([
        commands.loadState(shirtStreamName(input.shirtId), shirtDecider),
        commands.loadState(charityStreamName(input.selectedCharity), charityDecider),
      ]);
      const { state } = await commands.handle(waitlistStreamName(input.shirtId), waitlistDecider, () => ({
        type: 'JoinWaitlist',
        entryId: newId(),
        shirt,
        charityId: input.selectedCharity,
        charity,
        name: input.name,
        email: input.email,
        size: input.selectedSize,
        at: clock().toISOString(),
      }));
      const entry = findWaitlistEntry(state, {
        email: input.email,
        size: input.selectedSize,
        charityId: input.selectedCharity,
      });
      res.status(201).json({
        success: true,
        message: `You're on the waitlist for ${shirt?.name ?? 'this shirt'}!`,
        data: {
          id: entry?.entryId ?? '',
          name: input.name,
          email: input.email,
          selectedSize: input.selectedSize,
          selectedCharity: input.selectedCharity,
          shirtId: input.shirtId,
        },
      });
    });
}
