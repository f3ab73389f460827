import { z } from 'zod';
import { defineRoutes, invalidInput as invalid, notFound, unauthenticated } from '../route';
import { errorAnswer } from './errors';
import { idParams } from './ids';

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

export const charityList = z.array(charity);

export const createCharityRequest = z.object({
  name: z.string().trim().min(1).max(200),
  mission: z.string().trim().min(1).max(2000),
  website_url: z.url().max(2048),
  logo_url: z.string().trim().min(1).max(2048).optional(),
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
    summary: 'One charity',
    auth: 'none',
    params: idParams,
    answers: { 200: { description: 'The charity', schema: charity }, 404: notFound },
  },
  createCharity: {
    method: 'post',
    path: '/api/charity',
    summary: 'Create a charity',
    auth: 'user',
    body: createCharityRequest,
    answers: {
      201: { description: 'The new charity', schema: charity },
      400: invalid,
      401: unauthenticated,
      403: forbidden,
    },
  },
});
