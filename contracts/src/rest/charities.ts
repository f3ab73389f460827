import { z } from 'zod';
import { defineRoutes, invalidInput as invalid, notFound, unauthenticated } from '../route';
import { errorAnswer } from './errors';
import { idParams } from './ids';
import { HTTPS_ADDRESS, LOGO_ADDRESS, asSent } from './text-patterns';

export const charity = z
  .object({
    id: z.string(),
    name: z.string(),
    mission: z.string(),
    website_url: z.string(),
    logo_url: z.string().optional(),
  })
  .meta({ id: 'Charity' });
export type Charity = z.infer<typeof charity>;

/** The shop lists approved charities only; the other two are seen by their submitter and admins. */
export const charityStatus = z.enum(['pending', 'approved', 'rejected']);
export type CharityStatus = z.infer<typeof charityStatus>;

/** One charity with where it stands in review (and why it was turned down, if it was). */
export const charityWithStatus = charity
  .extend({
    status: charityStatus,
    /** The admin's reason, once rejected. */
    rejectionReason: z.string().optional(),
  })
  .meta({ id: 'CharityWithStatus' });
export type CharityWithStatus = z.infer<typeof charityWithStatus>;

export const charityList = z.array(charity);

/** The charities a member submitted, oldest first, each with where it stands in review. */
export const ownCharityList = z.object({ charities: z.array(charityWithStatus) }).meta({ id: 'OwnCharityList' });
export type OwnCharityList = z.infer<typeof ownCharityList>;

/** Text checked after trimming, documented with the blanks it tolerates around it. */
const address = (field: string, pattern: RegExp, rule: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be text`) })
    .max(2048)
    .trim()
    .refine((value) => pattern.test(value), `${field} must be ${rule}`)
    .meta({ pattern: asSent(pattern) });

/** A link the shop shows: the website https only, the logo https or a path on this site. */
export const createCharityRequest = z.object({
  name: z.string().max(200).trim().min(1),
  mission: z.string().max(2000).trim().min(1),
  website_url: address('website_url', HTTPS_ADDRESS, 'an https:// address'),
  logo_url: address('logo_url', LOGO_ADDRESS, 'an https:// address or a path on this site starting with /').optional(),
});
export type CreateCharityRequest = z.infer<typeof createCharityRequest>;

const forbidden = { description: 'Not allowed', schema: errorAnswer };

/** The charities shirts support. */
export const charityRoutes = defineRoutes({
  listCharities: {
    method: 'get',
    path: '/api/charities',
    summary: 'All charities',
    auth: 'none',
    answers: { 200: { description: 'Charities', schema: charityList } },
  },
  getCharity: {
    method: 'get',
    path: '/api/charity/{id}',
    summary: 'One charity; one awaiting review (or rejected) only to the member who submitted it',
    auth: 'none',
    params: idParams,
    answers: { 200: { description: 'The charity', schema: charityWithStatus }, 404: notFound },
  },
  createCharity: {
    method: 'post',
    path: '/api/charity',
    summary: 'Submit a charity: it waits for an admin to approve it before the shop offers it',
    auth: 'user',
    body: createCharityRequest,
    answers: {
      201: { description: 'The new charity, pending review', schema: charityWithStatus },
      400: invalid,
      401: unauthenticated,
      403: forbidden,
    },
  },
  listOwnCharities: {
    method: 'get',
    path: '/api/user/{id}/charities',
    summary: 'The charities the member submitted, whatever their review, as the catalogue projection has them',
    auth: 'user',
    params: idParams,
    answers: {
      200: { description: 'Their charities', schema: ownCharityList },
      401: unauthenticated,
      403: { description: "Another member's", schema: errorAnswer },
    },
  },
});
