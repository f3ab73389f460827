import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../src/http/security-headers';
import { as, createFundraiser, signUp } from '@qrshirt/test-support';
import { startTestServer, type TestServer } from './support/test-server';

const widgetSource = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../web/public/widget/demo-donation.html',
);

const directivesOf = (csp: string | null) =>
  Object.fromEntries(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );

describe('security headers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('sends a Content-Security-Policy of this site only, framed by nobody, on pages and API answers alike', async () => {
    for (const path of ['/', '/shop', '/api/shirts', '/api/nothing-here', '/healthz']) {
      const answer = await fetch(`${server.url}${path}`);
      const csp = directivesOf(answer.headers.get('content-security-policy'));
      expect(csp['default-src'], path).toEqual(["'self'"]);
      expect(csp['script-src'], path).toEqual(["'self'"]);
      expect(csp['frame-src'], path).toEqual(["'self'"]);
      expect(csp['connect-src'], path).toEqual(["'self'"]);
      // The proof-of-work widget's workers are this site's files: no blob: or data: workers.
      expect(csp['worker-src'], path).toEqual(["'self'"]);
      expect(csp['frame-ancestors'], path).toEqual(["'none'"]);
      expect(csp['object-src'], path).toEqual(["'none'"]);
      expect(csp, path).not.toHaveProperty('upgrade-insecure-requests');
      expect(answer.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(answer.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(answer.headers.get('x-frame-options'), path).toBe('DENY');
      expect(answer.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('lets only this site frame the demo donation widget, whose page has no inline script', async () => {
    // The page comes from the web client's build, which this suite does not make: the headers are
    // checked on an app that answers every path, the page's source on disk.
    const app = express()
      .use(securityHeaders({ widgetUrl: '/widget/demo-donation.html', apiUrl: '' }).middleware)
      .use((_req, res) => {
        res.send('page');
      });
    const listening = app.listen(0, '127.0.0.1');
    await once(listening, 'listening');
    try {
      const { port } = listening.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/widget/demo-donation.html`);
      expect(directivesOf(answer.headers.get('content-security-policy'))['frame-ancestors']).toEqual(["'self'"]);
      expect(answer.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      const page = await fetch(`http://127.0.0.1:${port}/widget/other.html`);
      expect(directivesOf(page.headers.get('content-security-policy'))['frame-ancestors']).toEqual(["'none'"]);
    } finally {
      listening.close();
    }
    const html = await readFile(widgetSource, 'utf8');
    expect(html).not.toMatch(/<script>|<script\s+type="module">|<style>/);
    expect(html).toContain('<script src="demo-donation.js"></script>');
  });

  it('sends HSTS when a trusted proxy reports HTTPS, and only then', async () => {
    const https = await fetch(`${server.url}/api/shirts`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const http = await fetch(`${server.url}/api/shirts`, { headers: { 'x-forwarded-proto': 'http' } });
    expect(http.headers.get('strict-transport-security')).toBeNull();
    const scan = await fetch(`${server.url}/api/fundraisers/no-such-fundraiser/scan`, {
      method: 'POST',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(scan.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('sends the same headers on a scan, answered ahead of Express or by it, accepted or refused', async () => {
    const owner = await signUp(server.api);
    const fundraiser = await createFundraiser(server.api, as(owner));
    // What is not about the answer's body or its transport (compression, length, connection).
    const transport = ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-encoding'];
    const securityHeadersOf = (answer: Response) =>
      Object.fromEntries(
        [...answer.headers].filter(([name]) => ![...transport, 'vary', 'content-type', 'x-request-id'].includes(name)),
      );
    const reference = securityHeadersOf(await fetch(`${server.url}/api/shirts`));
    // Ahead of Express: the id as phones send it, with or without a query. Express: an escaped
    // id or a trailing slash, which the front door leaves to it.
    const scans = [
      { path: `/api/fundraisers/${fundraiser.id}/scan`, status: 202 },
      { path: `/api/fundraisers/${fundraiser.id}/scan?from=qr`, status: 202 },
      { path: `/api/fundraisers/${fundraiser.id}/scan/`, status: 202 },
      { path: `/api/fundraisers/${encodeURIComponent(fundraiser.id).replace('-', '%2D')}/scan`, status: 202 },
      { path: '/api/fundraisers/no-such-fundraiser/scan', status: 404 },
      { path: '/api/fundraisers/not.an.id/scan', status: 400 },
    ];
    for (const { path, status } of scans) {
      const answer = await fetch(`${server.url}${path}`, { method: 'POST' });
      expect(answer.status, path).toBe(status);
      expect(answer.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      expect(securityHeadersOf(answer), path).toEqual(reference);
    }
  });
});

describe('security headers with another widget and API origin, behind no trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        VITE_DONATION_WIDGET_URL: 'https://widget.processor.example/embed?campaign=shirts',
        VITE_API_URL: 'https://api.qrshirts.example',
        TRUST_PROXY: 'false',
      },
    });
  });
  afterAll(() => server.stop());

  it('lets the pages frame the widget’s origin and call the API’s', async () => {
    const csp = directivesOf((await fetch(`${server.url}/`)).headers.get('content-security-policy'));
    expect(csp['frame-src']).toEqual(["'self'", 'https://widget.processor.example']);
    expect(csp['connect-src']).toEqual(["'self'", 'https://api.qrshirts.example']);
  });

  it('believes no X-Forwarded-Proto from an untrusted client', async () => {
    const answer = await fetch(`${server.url}/api/shirts`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(answer.headers.get('strict-transport-security')).toBeNull();
  });
});
