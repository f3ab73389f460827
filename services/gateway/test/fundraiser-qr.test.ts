import { shortCodeCandidate } from '@qrshirt/core';
import QRCode from 'qrcode';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qrCodeOptions } from '../src/qr/fundraiser-qr';
import { createFundraiser } from '@qrshirt/test-support';
import { asUser, startTestServer, type TestServer } from './support/test-server';

const PUBLIC_BASE_URL = 'https://shirts.example.org';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let server: TestServer;
let fundraiserId: string;
let scanUrl: string;

beforeAll(async () => {
  // With a trailing slash, as an operator may well write it.
  server = await startTestServer({ env: { PUBLIC_BASE_URL: `${PUBLIC_BASE_URL}/` } });
  fundraiserId = (await createFundraiser(server.api, asUser('qr-owner'))).id;
  // Its first candidate code: another fundraiser holding that one is a chance of one in 10^12.
  scanUrl = `${PUBLIC_BASE_URL}/q/${shortCodeCandidate(fundraiserId, 0)}`;
});
afterAll(() => server.stop());

async function get(path: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const answer = await fetch(server.url + path);
  return { status: answer.status, headers: answer.headers, bytes: Buffer.from(await answer.arrayBuffer()) };
}

/** Throws on anything that is not well-formed XML, and answers the root element's attributes. */
function parseXml(text: string): { name: string; attributes: Record<string, string> } {
  const parser = new SaxesParser();
  let root: { name: string; attributes: Record<string, string> } | undefined;
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    root ??= { name: tag.name, attributes: tag.attributes };
  });
  parser.write(text).close();
  if (!root) throw new Error('no root element');
  return root;
}

/** Modules per side with the quiet zone: what the viewBox spans and the pixel size divides into. */
function modulesWithMargin(text: string): number {
  return QRCode.create(text, { errorCorrectionLevel: qrCodeOptions(text).errorCorrectionLevel }).modules.size + 2 * 4;
}

describe('GET /api/fundraisers/{id}/qr.svg', () => {
  it("draws the fundraiser's short link under PUBLIC_BASE_URL as a well-formed SVG, cacheable", async () => {
    const { status, headers, bytes } = await get(`/api/fundraisers/${fundraiserId}/qr.svg`);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(headers.get('cache-control')).toBe('public, max-age=86400');
    expect(headers.get('content-disposition')).toBeNull();
    const svg = bytes.toString('utf8');

    const root = parseXml(svg);
    const side = modulesWithMargin(scanUrl);
    expect(root.name).toBe('svg');
    expect(root.attributes).toMatchObject({ xmlns: 'http://www.w3.org/2000/svg', viewBox: `0 0 ${side} ${side}` });
    expect(root.attributes.width).toBe(root.attributes.height);
    expect(Number(root.attributes.width) % side).toBe(0);

    expect(svg).toBe(await QRCode.toString(scanUrl, { ...qrCodeOptions(scanUrl), type: 'svg' }));
    const elsewhere = `${PUBLIC_BASE_URL}/fundraiser/${fundraiserId}?scan=true`;
    expect(svg).not.toBe(await QRCode.toString(elsewhere, { ...qrCodeOptions(elsewhere), type: 'svg' }));
  });

  it('is a download with a file name when asked with ?download=1', async () => {
    const { status, headers } = await get(`/api/fundraisers/${fundraiserId}/qr.svg?download=1`);
    expect(status).toBe(200);
    expect(headers.get('content-disposition')).toBe(`attachment; filename=fundraiser-${fundraiserId}-qr.svg`);
    expect(headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
  });
});

describe('GET /api/fundraisers/{id}/qr.png', () => {
  it('draws the same URL as a PNG of the same size as the SVG', async () => {
    const { status, headers, bytes } = await get(`/api/fundraisers/${fundraiserId}/qr.png`);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('image/png');
    expect(headers.get('cache-control')).toBe('public, max-age=86400');
    expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // The first chunk is IHDR: its width and height follow the chunk's length and type.
    expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
    const [width, height] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
    const svg = parseXml((await get(`/api/fundraisers/${fundraiserId}/qr.svg`)).bytes.toString('utf8'));
    expect([width, height]).toEqual([Number(svg.attributes.width), Number(svg.attributes.width)]);
    expect(width % modulesWithMargin(scanUrl)).toBe(0);

    expect(bytes).toEqual(await QRCode.toBuffer(scanUrl, { ...qrCodeOptions(scanUrl), type: 'png' }));
    const elsewhere = `http://localhost:8080/q/${shortCodeCandidate(fundraiserId, 0)}`;
    expect(bytes).not.toEqual(await QRCode.toBuffer(elsewhere, { ...qrCodeOptions(elsewhere), type: 'png' }));
  });

  it('is a download with a file name when asked with ?download=true', async () => {
    const { headers } = await get(`/api/fundraisers/${fundraiserId}/qr.png?download=true`);
    expect(headers.get('content-disposition')).toBe(`attachment; filename=fundraiser-${fundraiserId}-qr.png`);
    expect(headers.get('content-type')).toBe('image/png');
  });
});

describe('QR codes of fundraisers that do not exist', () => {
  it.each(['svg', 'png'])('answer 404 in JSON for .%s, and 400 for an id that cannot be one', async (format) => {
    const unknown = await server.api('GET', `/api/fundraisers/no-such-fundraiser/qr.${format}`);
    expect(unknown).toMatchObject({ status: 404, body: { error: 'Fundraiser not found' } });
    expect(unknown.headers.get('content-type')).toMatch(/^application\/json/);
    expect(unknown.headers.get('cache-control')).toBeNull();
    const invalid = await server.api('GET', `/api/fundraisers/${encodeURIComponent('not an id')}/qr.${format}`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatch(/id/);
  });
});
