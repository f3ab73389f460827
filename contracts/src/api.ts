import type { z } from 'zod';
import { adminApiRoutes } from './api-admin-routes';
import { authApiRoutes } from './api-auth-routes';
import * as rest from './rest';

/**
 * Every REST path of the product, in one table: the gateway's routes are checked against it by
 * the tests, and the OpenAPI document is generated from it.
 */
export interface ApiRoute {
  method: 'get' | 'post' | 'put' | 'patch';
  path: string;
  summary: string;
  /** 'user': signed-in, not anonymous; 'any': anonymous tokens too; 'none': no token needed; 'admin': ADMIN_EMAILS. */
  auth: 'none' | 'any' | 'user' | 'admin';
  params?: z.ZodObject;
  /** Query parameters, each optional. */
  query?: z.ZodObject;
  body?: z.ZodType;
  headers?: Record<string, string>;
  /** `contentType` for answers that are not JSON (CSV, server-sent events). */
  answers: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
}

const notFound = { description: 'Unknown id', schema: rest.errorAnswer };
const invalid = { description: 'Invalid input', schema: rest.errorAnswer };
const unauthenticated = { description: 'No or bad token', schema: rest.errorAnswer };
const forbidden = { description: 'Not allowed', schema: rest.errorAnswer };

export const apiRoutes: ApiRoute[] = [
  {
    method: 'post',
    path: '/api/user',
    summary: "Sync the signed-in user's profile",
    auth: 'user',
    body: rest.syncUserRequest,
    answers: {
      200: { description: 'The stored user', schema: rest.user },
      400: invalid,
      401: unauthenticated,
      403: forbidden,
    },
  },
  {
    method: 'get',
    path: '/api/user/{id}',
    summary: 'One user (only themselves)',
    auth: 'user',
    params: rest.idParams,
    answers: {
      200: { description: 'The user', schema: rest.user },
      401: unauthenticated,
      403: forbidden,
      404: notFound,
    },
  },
  {
    method: 'patch',
    path: '/api/user/{id}',
    summary: 'Change display name or photo (only themselves)',
    auth: 'user',
    params: rest.idParams,
    body: rest.updateProfileRequest,
    answers: {
      200: { description: 'The user', schema: rest.user },
      400: invalid,
      401: unauthenticated,
      403: forbidden,
      404: notFound,
    },
  },
  {
    method: 'get',
    path: '/api/user/{id}/stats',
    summary: "A user's impact (only themselves)",
    auth: 'user',
    params: rest.idParams,
    answers: { 200: { description: 'Impact figures', schema: rest.userStats }, 401: unauthenticated, 403: forbidden },
  },
  {
    method: 'get',
    path: '/api/charities',
    summary: 'All charities',
    auth: 'none',
    answers: { 200: { description: 'Charities', schema: rest.charityList } },
  },
  {
    method: 'get',
    path: '/api/charity/{id}',
    summary: 'One charity',
    auth: 'none',
    params: rest.idParams,
    answers: { 200: { description: 'The charity', schema: rest.charity }, 404: notFound },
  },
  {
    method: 'post',
    path: '/api/charity',
    summary: 'Create a charity',
    auth: 'user',
    body: rest.createCharityRequest,
    answers: {
      201: { description: 'The new charity', schema: rest.charity },
      400: invalid,
      401: unauthenticated,
      403: forbidden,
    },
  },
  {
    method: 'get',
    path: '/api/shirts',
    summary: 'All shirts',
    auth: 'none',
    answers: { 200: { description: 'Shirts', schema: rest.shirtList } },
  },
  {
    method: 'get',
    path: '/api/shirt/{id}',
    summary: 'One shirt',
    auth: 'none',
    params: rest.idParams,
    answers: { 200: { description: 'The shirt', schema: rest.shirt }, 404: notFound },
  },
  {
    method: 'post',
    path: '/api/waitlist',
    summary: 'Join the waitlist for a shirt',
    auth: 'none',
    body: rest.joinWaitlistRequest,
    answers: { 201: { description: 'Joined', schema: rest.joinWaitlistAnswer }, 400: invalid, 404: notFound },
  },
  {
    method: 'get',
    path: '/api/waitlist',
    summary: 'Waitlist counts (no personal data)',
    auth: 'none',
    answers: { 200: { description: 'Counts', schema: rest.waitlistStats } },
  },
  {
    method: 'post',
    path: '/api/fundraisers',
    summary: 'Create a fundraiser for a shirt and a charity',
    auth: 'user',
    body: rest.createFundraiserRequest,
    answers: {
      201: { description: 'The fundraiser', schema: rest.fundraiser },
      400: invalid,
      401: unauthenticated,
      403: forbidden,
      404: notFound,
    },
  },
  {
    method: 'get',
    path: '/api/fundraisers/{id}',
    summary: 'One fundraiser',
    auth: 'none',
    params: rest.idParams,
    answers: { 200: { description: 'The fundraiser', schema: rest.fundraiser }, 404: notFound },
  },
  {
    method: 'post',
    path: '/api/fundraisers/{id}/scan',
    summary: 'Record a QR scan',
    auth: 'none',
    params: rest.idParams,
    answers: {
      202: { description: 'Accepted and durably stored', schema: rest.scanAccepted },
      404: notFound,
      503: { description: 'Ingestion is overloaded or down; retry later', schema: rest.errorAnswer },
    },
  },
  {
    method: 'post',
    path: '/api/fundraisers/{id}/donate',
    summary: 'Record a donation',
    auth: 'none',
    params: rest.idParams,
    headers: { 'Idempotency-Key': 'Optional; a retry with the same key records the donation once' },
    body: rest.donateRequest,
    answers: {
      201: { description: 'Recorded', schema: rest.donation },
      200: { description: 'Already recorded under this Idempotency-Key', schema: rest.donation },
      400: invalid,
      404: notFound,
      409: { description: 'Idempotency-Key reused with another amount', schema: rest.errorAnswer },
    },
  },
  {
    method: 'get',
    path: '/api/fundraisers/{id}/stats',
    summary: "A fundraiser's figures (owner only)",
    auth: 'user',
    params: rest.idParams,
    answers: {
      200: { description: 'Figures and the per-day series', schema: rest.fundraiserStats },
      401: unauthenticated,
      403: forbidden,
      404: notFound,
    },
  },
  {
    method: 'get',
    path: '/api/fundraisers/{id}/qr.svg',
    summary: 'The QR code for the shirt, pointing at the scan page (SVG)',
    auth: 'none',
    params: rest.idParams,
    query: rest.qrCodeQuery,
    answers: { 200: { description: 'The QR code', contentType: 'image/svg+xml' }, 400: invalid, 404: notFound },
  },
  {
    method: 'get',
    path: '/api/fundraisers/{id}/qr.png',
    summary: 'The QR code for the shirt, pointing at the scan page (PNG)',
    auth: 'none',
    params: rest.idParams,
    query: rest.qrCodeQuery,
    answers: { 200: { description: 'The QR code', contentType: 'image/png' }, 400: invalid, 404: notFound },
  },
  {
    method: 'post',
    path: '/api/analytics',
    summary: 'A batch of page views and analytics events',
    auth: 'none',
    body: rest.analyticsBatch,
    answers: {
      202: { description: 'Accepted', schema: rest.analyticsAccepted },
      400: invalid,
      503: { description: 'Ingestion is overloaded or down', schema: rest.errorAnswer },
    },
  },
  ...authApiRoutes,
  ...adminApiRoutes,
];
