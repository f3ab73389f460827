import { z } from 'zod';
import { defineRoutes } from '../route';

/** The API describing itself. */
export const apiDescriptionRoutes = defineRoutes({
  getOpenApi: {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This description of the API (OpenAPI 3.1), generated from the route table',
    auth: 'none',
    answers: { 200: { description: 'The OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
  },
});
