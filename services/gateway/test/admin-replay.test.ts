import { type AdminOverview, adminOverview } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createFundraiser,
  type RequestOptions,
  runToEnd,
  scanner,
  toolCommand,
  WAIT_MS,
  waitFor,
} from '@qrshirt/test-support';
import { asUser, userToken } from './support/test-server';
import { ADMIN_EMAIL, type AdminTestServer, startAdminServer } from './support/admin';
import { donateConfirmed } from './support/webhooks';

const DAY_MS = 24 * 60 * 60 * 1000;

let server: AdminTestServer;
let admin: RequestOptions;
let overview: AdminOverview;
let now = Date.parse('2025-05-10T09:00:00Z');
/** On the store's own clock (the one asOf reads): after the first day's events, before the second's. */
let betweenTheDays: string;
const ids: { water: string; trees: string; charities: string[]; shirts: string[] } = {
  water: '',
  trees: '',
  charities: [],
  shirts: [],
};

const fundraiser = async (owner: string, charityId: string, shirtId: string, name: string) =>
  (await createFundraiser(server.api, asUser(owner), { charityId, shirtId, name })).id;

/** Two days of scans and donations on two fundraisers, a third fundraiser without any. */
beforeAll(async () => {
  server = await startAdminServer({ clock: () => new Date(now) });
  ids.shirts = (await server.api('GET', '/api/shirts')).body.map((shirt: { id: string }) => shirt.id);
  ids.charities = (await server.api('GET', '/api/charities')).body.map((charity: { id: string }) => charity.id);
  ids.water = await fundraiser('owner-a', ids.charities[0]!, ids.shirts[0]!, 'Water, "the" run');
  ids.trees = await fundraiser('owner-b', ids.charities[1]!, ids.shirts[1]!, '=Tree climb');
  await fundraiser('owner-b', ids.charities[1]!, ids.shirts[0]!, 'Quiet one');
  // Scanner 0's second scan is a request, not a scan: the replay counts scans, as the read models do.
  for (const n of [0, 1, 2, 0]) await server.api('POST', `/api/fundraisers/${ids.water}/scan`, { headers: scanner(n) });
  await donateConfirmed(server.api, ids.water, 10);
  await server.embedded.projectionsCaughtUp(WAIT_MS);
  betweenTheDays = await recordedInstantBetween();
  now += DAY_MS;
  await server.api('POST', `/api/fundraisers/${ids.trees}/scan`, { headers: scanner(0) });
  await donateConfirmed(server.api, ids.trees, 25.5);
  await donateConfirmed(server.api, ids.water, 0.25);
  await server.embedded.projectionsCaughtUp(WAIT_MS);
  // The admin's first session expired on the server's clock overnight.
  admin = as(
    (await server.api('POST', '/api/auth/signin', { body: { email: ADMIN_EMAIL, password: 'correct horse' } })).body,
  );
  const answer = await server.api('GET', '/api/admin/overview', admin);
  expect(answer.status).toBe(200);
  overview = adminOverview.parse(answer.body);
});
afterAll(() => server.stop());

interface Line {
  scans: number;
  donations: number;
  amountRaised: number;
  fundraisers: number;
  [key: string]: unknown;
}

/** An instant strictly after every event recorded so far, and strictly before any recorded next. */
async function recordedInstantBetween(): Promise<string> {
  const clockPassed = (instant: number) =>
    waitFor(
      `the clock to pass ${instant}`,
      () => Date.now(),
      (now) => now > instant,
      { intervalMs: 1 },
    );
  const instant = await clockPassed(Date.now());
  await clockPassed(instant);
  return new Date(instant).toISOString();
}

const ndjsonLines = (text: string): Line[] =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);

function totals(lines: Line[]) {
  return {
    scans: lines.reduce((sum, line) => sum + line.scans, 0),
    donations: lines.reduce((sum, line) => sum + line.donations, 0),
    amountRaised: Math.round(lines.reduce((sum, line) => sum + line.amountRaised * 100, 0)) / 100,
  };
}

/** The command line on the same SQLite file the server writes, as its own OS process. */
const runCli = (args: string[]) =>
  runToEnd({
    name: 'replay-donations',
    command: toolCommand('replay-donations', args),
    env: { DATA_DIR: server.dataDir, EVENTSTORE_URL: '' },
  });

describe('GET /api/admin/replay', () => {
  it('downloads the figures per day, whose totals equal the overview read model', async () => {
    const { status, headers, body } = await server.api('GET', '/api/admin/replay?groupBy=day&format=ndjson', admin);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(headers.get('content-disposition')).toBe('attachment; filename="donations-by-day-2025-05-11.ndjson"');
    const lines = ndjsonLines(body);
    expect(totals(lines)).toEqual({
      scans: overview.totals.scans,
      donations: overview.totals.donations,
      amountRaised: overview.totals.amountRaised,
    });
    expect(
      lines.map(({ day, scans, donations, amountRaised }) => ({ date: day, scans, donations, amountRaised })),
    ).toEqual(overview.daily.map(({ scanRequests: _requests, ...figures }) => figures));
  });

  it('groups by charity as a CSV file, each charity raising what the overview says', async () => {
    const { status, headers, body } = await server.api('GET', '/api/admin/replay?groupBy=charity', admin);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(headers.get('content-disposition')).toBe('attachment; filename="donations-by-charity-2025-05-11.csv"');
    const [header, ...rows] = (body as string).trimEnd().split('\r\n');
    expect(header).toBe(
      'charityId,charity,scans,donations,gross,refunds,disputes,amountRaised,fees,platformFees,net,fundraisers',
    );
    const column = header!.split(',').indexOf('amountRaised');
    const raised = Object.fromEntries(rows.map((row) => [row.split(',')[0], Number(row.split(',')[column])]));
    expect(raised).toEqual(
      Object.fromEntries(overview.topCharities.map((charity) => [charity.id, charity.amountRaised])),
    );
  });

  it('is the same file the command line writes from the same log', async () => {
    const download = await server.api('GET', '/api/admin/replay?groupBy=fundraiser&format=csv', admin);
    const run = await runCli(['--group-by', 'fundraiser', '--format', 'csv']);
    expect(run.status, run.stderr).toBe(0);
    expect(download.body).toBe(run.stdout);
    // Names typed by users stay text in a spreadsheet.
    expect(download.body).toContain(`${ids.trees},'=Tree climb,`);
  });

  it('limits to the dates asked for, and replays the log as it stood at asOf', async () => {
    const secondDay = await server.api(
      'GET',
      '/api/admin/replay?groupBy=day&format=ndjson&from=2025-05-11&to=2025-05-11',
      admin,
    );
    expect(ndjsonLines(secondDay.body).map((line) => line.day)).toEqual(['2025-05-11']);
    const asOfFirstDay = await server.api('GET', `/api/admin/replay?format=ndjson&asOf=${betweenTheDays}`, admin);
    expect(totals(ndjsonLines(asOfFirstDay.body))).toEqual({ scans: 3, donations: 1, amountRaised: 10 });
    const blanks = await server.api('GET', '/api/admin/replay?format=ndjson&from=&to=&asOf=', admin);
    expect(totals(ndjsonLines(blanks.body)).scans).toBe(overview.totals.scans);
  });

  it('answers 400 with a readable error for arguments it cannot use', async () => {
    const cases: [string, string][] = [
      ['groupBy=week', 'groupBy must be one of day, charity, fundraiser, shirt'],
      ['format=table', 'format must be one of csv, ndjson'],
      ['from=2025-02-30', 'from must be a day (YYYY-MM-DD, UTC) or an ISO instant with an offset, got "2025-02-30"'],
      ['asOf=yesterday', 'asOf must be a day (YYYY-MM-DD, UTC) or an ISO instant with an offset, got "yesterday"'],
      ['from=2025-05-11&to=2025-05-10', 'to is before from'],
    ];
    for (const [query, error] of cases) {
      const answer = await server.api('GET', `/api/admin/replay?${query}`, admin);
      expect({ query, status: answer.status, body: answer.body }).toEqual({ query, status: 400, body: { error } });
    }
  });

  it('answers 403 to a member and an anonymous session, 401 without a token', async () => {
    const member = await server.api('GET', '/api/admin/replay', { token: userToken('not-an-admin') });
    expect({ status: member.status, body: member.body }).toEqual({
      status: 403,
      body: { error: 'Only administrators can do this' },
    });
    expect((await server.api('GET', '/api/admin/replay', server.anonymous)).status).toBe(403);
    const nobody = await server.api('GET', '/api/admin/replay');
    expect({ status: nobody.status, body: nobody.body }).toEqual({
      status: 401,
      body: { error: 'Authentication required for this request' },
    });
  });
});
