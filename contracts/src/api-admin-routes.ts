import type { ApiRoute } from './api';
import * as rest from './rest';

const unauthenticated = { description: 'No or bad token', schema: rest.errorAnswer };
const forbidden = { description: 'Not an admin (anonymous sessions included)', schema: rest.errorAnswer };
const invalid = { description: 'Invalid input', schema: rest.errorAnswer };
const invalidFields = {
  description: 'Invalid fields: `fields` maps each one to its problem',
  schema: rest.fieldErrorsAnswer,
};
const notFound = { description: 'Unknown id', schema: rest.errorAnswer };
const guarded = { 401: unauthenticated, 403: forbidden };

/** The admin API and the owners' live updates; part of `apiRoutes`. */
export const adminApiRoutes: ApiRoute[] = [
  {
    method: 'get',
    path: '/api/me',
    summary: 'Who the caller is, and whether they are an admin',
    auth: 'any',
    answers: { 200: { description: 'The caller', schema: rest.me }, 401: guarded[401] },
  },
  {
    method: 'get',
    path: '/api/admin/overview',
    summary: 'Totals, per-day series, top fundraisers and charities',
    auth: 'admin',
    query: rest.adminOverviewQuery,
    answers: {
      200: { description: 'Figures across all fundraisers', schema: rest.adminOverview },
      400: invalid,
      ...guarded,
    },
  },
  {
    method: 'post',
    path: '/api/admin/charities',
    summary: 'Create a charity',
    auth: 'admin',
    body: rest.adminCreateCharityRequest,
    answers: { 201: { description: 'The new charity', schema: rest.charity }, 400: invalidFields, ...guarded },
  },
  {
    method: 'put',
    path: '/api/admin/charities/{id}',
    summary: 'Change a charity (the fields given)',
    auth: 'admin',
    params: rest.idParams,
    body: rest.adminUpdateCharityRequest,
    answers: {
      200: { description: 'The charity as changed', schema: rest.charity },
      400: invalidFields,
      ...guarded,
      404: notFound,
    },
  },
  {
    method: 'post',
    path: '/api/admin/shirts',
    summary: 'Add a shirt',
    auth: 'admin',
    body: rest.adminCreateShirtRequest,
    answers: { 201: { description: 'The new shirt', schema: rest.shirt }, 400: invalidFields, ...guarded },
  },
  {
    method: 'put',
    path: '/api/admin/shirts/{id}',
    summary: 'Change a shirt (the fields given)',
    auth: 'admin',
    params: rest.idParams,
    body: rest.adminUpdateShirtRequest,
    answers: {
      200: { description: 'The shirt as changed', schema: rest.shirt },
      400: invalidFields,
      ...guarded,
      404: notFound,
    },
  },
  {
    method: 'get',
    path: '/api/admin/waitlist',
    summary: 'Waitlist counts per shirt, size and charity, with names',
    auth: 'admin',
    answers: { 200: { description: 'Counts', schema: rest.adminWaitlistStats }, ...guarded },
  },
  {
    method: 'get',
    path: '/api/admin/waitlist/entries',
    summary: 'Waitlist entries with names and emails, newest first',
    auth: 'admin',
    query: rest.adminWaitlistEntriesQuery,
    answers: { 200: { description: 'One page', schema: rest.adminWaitlistEntriesPage }, 400: invalid, ...guarded },
  },
  {
    method: 'get',
    path: '/api/admin/waitlist/entries.csv',
    summary: 'Every waitlist entry as a CSV download',
    auth: 'admin',
    answers: {
      200: {
        description: 'joinedAt, name, email, size, shirtId, shirtName, charityId, charityName',
        contentType: 'text/csv',
      },
      ...guarded,
    },
  },
  {
    method: 'get',
    path: '/api/admin/outbox',
    summary: 'Mail and SMS messages: status, tries, last error (addresses masked), newest first',
    auth: 'admin',
    query: rest.adminOutboxQuery,
    answers: {
      200: { description: 'One page, and the count per status', schema: rest.adminOutboxPage },
      400: invalid,
      ...guarded,
    },
  },
  {
    method: 'post',
    path: '/api/admin/outbox/{id}/retry',
    summary: 'Send a message again now (a dead one gets a fresh 24 hours of tries)',
    auth: 'admin',
    params: rest.idParams,
    answers: {
      200: { description: 'The message, queued', schema: rest.adminOutboxMessage },
      ...guarded,
      404: notFound,
      409: { description: 'Already sent', schema: rest.errorAnswer },
    },
  },
  {
    method: 'get',
    path: '/api/admin/projections',
    summary: 'Each projection: checkpoint, lag, state, rebuild',
    auth: 'admin',
    answers: { 200: { description: 'Projection status', schema: rest.adminProjections }, ...guarded },
  },
  {
    method: 'post',
    path: '/api/admin/projections/{name}/rebuild',
    summary: 'Start a blue/green rebuild of a projection',
    auth: 'admin',
    params: rest.projectionNameParams,
    answers: {
      202: { description: 'Started; GET the same path for its progress', schema: rest.rebuildStatus },
      ...guarded,
      404: { description: 'Unknown projection', schema: rest.errorAnswer },
      409: { description: 'A rebuild of it is already running', schema: rest.errorAnswer },
    },
  },
  {
    method: 'get',
    path: '/api/admin/projections/{name}/rebuild',
    summary: 'Progress of the last rebuild started from this gateway',
    auth: 'admin',
    params: rest.projectionNameParams,
    answers: {
      200: { description: 'Rebuild progress', schema: rest.rebuildStatus },
      ...guarded,
      404: { description: 'Unknown projection, or none started here', schema: rest.errorAnswer },
    },
  },
  {
    method: 'get',
    path: '/api/admin/events',
    summary: 'Browse the event log (names and emails masked unless reveal=true)',
    auth: 'admin',
    query: rest.adminEventsQuery,
    answers: { 200: { description: 'One page of events', schema: rest.adminEventsPage }, 400: invalid, ...guarded },
  },
  {
    method: 'get',
    path: '/api/admin/replay',
    summary: 'The donation history replayed from the event log, as `npm run replay-donations` writes it',
    auth: 'admin',
    query: rest.adminReplayQuery,
    answers: {
      200: {
        description:
          'A download: CSV, or with format=ndjson one JSON object per line (application/x-ndjson); per group: scans, donations, amountRaised, fundraisers',
        contentType: 'text/csv',
      },
      400: invalid,
      ...guarded,
    },
  },
  {
    method: 'get',
    path: '/api/fundraisers/{id}/live',
    summary: "A fundraiser's figures as server-sent events (owner only)",
    auth: 'user',
    params: rest.idParams,
    answers: {
      200: {
        description: '`event: stats` with the /stats JSON now and on every scan or donation; `: heartbeat` every 15 s',
        contentType: 'text/event-stream',
      },
      401: unauthenticated,
      403: { description: 'Not the owner', schema: rest.errorAnswer },
      404: notFound,
    },
  },
  {
    method: 'get',
    path: '/api/user/{id}/live',
    summary: "A user's impact as server-sent events (only themselves)",
    auth: 'user',
    params: rest.idParams,
    answers: {
      200: {
        description:
          '`event: stats` with the /stats JSON now and on every scan or donation of theirs; `: heartbeat` every 15 s',
        contentType: 'text/event-stream',
      },
      401: unauthenticated,
      403: { description: 'Another user', schema: rest.errorAnswer },
    },
  },
];
