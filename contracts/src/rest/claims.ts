import { z } from 'zod';
import { defineRoutes, invalidInput as invalid } from '../route';
import { errorAnswer } from './errors';
import { fundraiser } from './fundraisers';

/** The token from the claim link (`/claim#token=<token>`) mailed when an operator fulfilled the entry. */
export const createClaimRequest = z.object({
  token: z.string({ error: 'token is required' }).max(512).trim().min(1, 'token is required'),
});
export type CreateClaimRequest = z.infer<typeof createClaimRequest>;

/*
 * Claims: the person a waitlist entry's fundraiser was made for takes it, signed in with the
 * verified address the link was mailed to.
 */
export const claimRoutes = defineRoutes({
  createClaim: {
    method: 'post',
    path: '/api/claims',
    summary: "Become the owner of a waitlist entry's fundraiser, with the token of its claim link",
    auth: 'user',
    body: createClaimRequest,
    answers: {
      201: { description: 'The fundraiser, now yours', schema: fundraiser },
      200: { description: 'Yours already: you claimed it with this link (a retry)', schema: fundraiser },
      400: invalid,
      403: {
        description: 'Your address is not verified, or the link was mailed to another address',
        schema: errorAnswer,
      },
      404: { description: 'Not a claim link of ours', schema: errorAnswer },
      409: { description: 'The link has been used already, by another account', schema: errorAnswer },
      410: {
        description: 'The link has expired (links work for 30 days), or its person removed the waitlist entry',
        schema: errorAnswer,
      },
    },
  },
});
