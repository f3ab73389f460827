import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';
import { SHORT_CODE_ALPHABET, createFundraiserQueries, systemClock } from '@qrshirt/core';
import { createFundraiser, PHONE, scanner, WAIT_MS } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGreyPng } from './support/png';
import { asUser, startTestServer, type TestServer } from './support/test-server';

/** 24 characters, the length the QR code's version is promised for. */
const PUBLIC_BASE_URL = 'https://qrshirts.example';
const SHORT_LINK = new RegExp(`^${PUBLIC_BASE_URL}/q/([${SHORT_CODE_ALPHABET}]{1,8})$`);
const QUIET_ZONE_MODULES = 4;

let dataDir: string;
let server: TestServer;
let fundraiserId: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-short-links-'));
  server = await startTestServer({ dataDir, env: { PUBLIC_BASE_URL } });
  fundraiserId = (await createFundraiser(server.api, asUser('short-owner'))).id;
});
afterAll(async () => {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** The PNG QR code as a phone reads it: what it says, its version, and its modules across. */
async function scanQrPng(id: string) {
  const answer = await fetch(`${server.url}/api/fundraisers/${id}/qr.png`);
  expect(answer.status).toBe(200);
  const { width, height, rgba } = readGreyPng(Buffer.from(await answer.arrayBuffer()));
  const read = jsQR(rgba, width, height);
  if (!read) throw new Error('the QR code does not read');
  // The first dark pixel is the top-left corner of the finder pattern, just inside the quiet zone:
  // it gives the pixels per module, and so the modules across.
  let firstDark = 0;
  while (rgba[firstDark * 4]! >= 128) firstDark += 1;
  const pixelsPerModule = (firstDark % width) / QUIET_ZONE_MODULES;
  const side = width / pixelsPerModule - 2 * QUIET_ZONE_MODULES;
  return { payload: read.data, version: read.version, side };
}

async function visit(path: string) {
  return fetch(`${server.url}${path}`, { redirect: 'manual' });
}

describe("a fundraiser's QR code", () => {
  it('encodes PUBLIC_BASE_URL/q/<code of at most 8 characters>, at version 4 or less', async () => {
    expect(PUBLIC_BASE_URL).toHaveLength(24);
    const { payload, version, side } = await scanQrPng(fundraiserId);
    expect(payload).toMatch(SHORT_LINK);
    expect(version).toBeLessThanOrEqual(4);
    // The version as the drawing shows it: 17 modules across, and 4 more per version.
    expect((side - 17) / 4).toBe(version);
    // The same code every time, and another fundraiser's is another.
    expect((await scanQrPng(fundraiserId)).payload).toBe(payload);
    const other = (await createFundraiser(server.api, asUser('short-owner'))).id;
    expect((await scanQrPng(other)).payload).not.toBe(payload);
  });
});

describe('GET /q/<code>', () => {
  it("opens the fundraiser's page as a scan, which the page records once: the short link itself counts nothing", async () => {
    const { payload } = await scanQrPng(fundraiserId);
    const code = SHORT_LINK.exec(payload)![1]!;
    for (const typed of [code, code.toUpperCase()]) {
      const answer = await visit(`/q/${typed}`);
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toBe(`/fundraiser/${fundraiserId}?scan=true`);
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
    const stats = async () => {
      await server.embedded.projectionsCaughtUp(WAIT_MS);
      return (await server.api('GET', `/api/fundraisers/${fundraiserId}/stats`, asUser('short-owner'))).body;
    };
    expect(await stats()).toMatchObject({ scans: 0, scanRequests: 0 });
    // What the page does with scan=true.
    const visitor = scanner(7, { userAgent: PHONE });
    const recorded = await server.api('POST', `/api/fundraisers/${fundraiserId}/scan`, { headers: visitor });
    expect(recorded.status).toBe(202);
    expect(await stats()).toMatchObject({ scans: 1, scanRequests: 1 });
  });

  it('answers a code nobody holds, or anything that cannot be a code, with 404 and records nothing', async () => {
    const before = await server.embedded.eventStore.headPosition();
    for (const code of ['zzzzzzzz', 'abc', 'ab0o1l1i', '%3Cscript%3E%22', '%FF', 'x'.repeat(300)]) {
      const answer = await visit(`/q/${code}`);
      expect({ code, status: answer.status }).toEqual({ code, status: 404 });
      expect(answer.headers.get('location')).toBeNull();
    }
    expect(await server.embedded.eventStore.headPosition()).toBe(before);
  });

  it('leaves the addresses of codes printed before short links working', async () => {
    const answer = await visit(`/fundraiser/${fundraiserId}?scan=true`);
    expect(answer.status).not.toBe(404);
    expect(answer.headers.get('location')).toBeNull();
  });
});

describe('short codes across a restart', () => {
  it('are in the fundraisers read model, and open the same page from a process that never saw them given', async () => {
    const code = SHORT_LINK.exec((await scanQrPng(fundraiserId)).payload)![1]!;
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    expect(
      await createFundraiserQueries(server.embedded.readModels, systemClock).getFundraiserIdByShortCode(code),
    ).toBe(fundraiserId);
    await server.stop();
    server = await startTestServer({ dataDir, env: { PUBLIC_BASE_URL } });
    const answer = await visit(`/q/${code}`);
    expect(answer.headers.get('location')).toBe(`/fundraiser/${fundraiserId}?scan=true`);
    expect((await scanQrPng(fundraiserId)).payload).toBe(`${PUBLIC_BASE_URL}/q/${code}`);
  });
});
