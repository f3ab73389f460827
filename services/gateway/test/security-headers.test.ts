import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../src/http/security-headers';
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
      .use(securityHeaders({ widgetUrl: '/widget/demo-donation.html', apiUrl: '' }))
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
