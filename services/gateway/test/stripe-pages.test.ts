import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webClient } from '../src/http/web-client';
import { startTestServer, type TestServer } from './support/test-server';

const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_51widget',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_51widget',
  STRIPE_WEBHOOK_SECRET: 'whsec_widget',
};

const directivesOf = (csp: string | null) =>
  Object.fromEntries(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );

const STRIPE_HOSTS = /stripe\.com|googleapis\.com/;

describe("the Content-Security-Policy and Stripe's embedded Checkout", () => {
  let withStripe: TestServer;
  let withoutStripe: TestServer;
  beforeAll(async () => {
    [withStripe, withoutStripe] = await Promise.all([startTestServer({ env: STRIPE_ENV }), startTestServer()]);
  });
  afterAll(() => Promise.all([withStripe.stop(), withoutStripe.stop()]));

  it("lets the pages load, frame and call what Stripe's security guide lists for embedded Checkout, with Stripe configured", async () => {
    for (const route of ['/', '/fundraiser/f-1', '/api/shirts']) {
      const csp = directivesOf((await fetch(`${withStripe.url}${route}`)).headers.get('content-security-policy'));
      expect(csp['script-src'], route).toEqual([
        "'self'",
        'https://js.stripe.com',
        'https://*.js.stripe.com',
        'https://checkout.stripe.com',
      ]);
      expect(csp['frame-src'], route).toEqual([
        "'self'",
        'https://js.stripe.com',
        'https://*.js.stripe.com',
        'https://checkout.stripe.com',
      ]);
      expect(csp['connect-src'], route).toEqual(["'self'", 'https://api.stripe.com', 'https://checkout.stripe.com']);
      // Stripe's images (img-src https://*.stripe.com) are https: images; nothing else widens.
      expect(csp['img-src'], route).toEqual(["'self'", 'data:', 'https:']);
      expect(csp['default-src'], route).toEqual(["'self'"]);
      expect(csp['frame-ancestors'], route).toEqual(["'none'"]);
    }
  });

  it('names no Stripe host without Stripe', async () => {
    for (const route of ['/', '/fundraiser/f-1', '/api/shirts']) {
      const csp = (await fetch(`${withoutStripe.url}${route}`)).headers.get('content-security-policy');
      expect(csp, route).toBeTruthy();
      expect(csp, route).not.toMatch(STRIPE_HOSTS);
    }
  });
});

describe("the pages tell their client Stripe's publishable key", () => {
  let root: string;
  const servers: Server[] = [];

  /** The web client of a gateway with these settings, over a stand-in build, on a free port. */
  async function serve(settings: { anonymousAuth?: boolean; stripePublishableKey?: string | null }): Promise<string> {
    const app = express().use(
      webClient({
        distDir: path.join(root, 'dist'),
        publicDir: path.join(root, 'public'),
        fundraiserIdByShortCode: async () => null,
        read: {
          landing: async (id) => (id === 'f-1' ? { fundraiser: { id }, charity: {} } : null),
          shirts: async () => [],
          shirt: async (id) => (id === 'sh-1' ? { id } : null),
          charities: async () => [],
        },
        serverPagesModule: path.join(root, 'entry-server.mjs'),
        ...settings,
      }),
    );
    const server = await new Promise<Server>((resolve) => {
      const listening: Server = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    servers.push(server);
    const address = server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'stripe-pages-'));
    mkdirSync(path.join(root, 'dist'), { recursive: true });
    mkdirSync(path.join(root, 'public'), { recursive: true });
    writeFileSync(path.join(root, 'dist', 'index.html'), '<!doctype html><html><head><title>app</title>');
    const page = (name: string) =>
      `({ status: 200, html: '<!doctype html><html lang="en"><head><title>${name}</title>' })`;
    writeFileSync(
      path.join(root, 'entry-server.mjs'),
      `export const createLandingRenderer = () => () => ${page('landing')};
      export const createHomeRenderer = () => () => ${page('home')};
      export const createShopRenderer = () => () => ${page('shop')};
      export const createShirtRenderer = () => () => ${page('shirt')};`,
    );
  });
  afterAll(() => {
    for (const server of servers) server.close();
    rmSync(root, { recursive: true, force: true });
  });

  const routes = ['/', '/shop', '/shirt/sh-1', '/fundraiser/f-1', '/signin', '/no/such/page'];
  const keyTag = '<meta name="qrshirt-stripe-publishable-key" content="pk_test_51widget">';

  it('in a meta tag, rendered on the server or not, beside the other settings', async () => {
    for (const anonymousAuth of [true, false]) {
      const url = await serve({ anonymousAuth, stripePublishableKey: 'pk_test_51widget' });
      for (const route of routes) {
        const html = await (await fetch(`${url}${route}`, { headers: { accept: 'text/html' } })).text();
        expect({ route, anonymousAuth, keyed: html.includes(keyTag) }).toEqual({ route, anonymousAuth, keyed: true });
        expect(html.includes('qrshirt-anonymous-auth'), route).toBe(!anonymousAuth);
      }
    }
  });

  it('and no tag without Stripe, the pages then as built', async () => {
    const url = await serve({ stripePublishableKey: null });
    for (const route of routes) {
      const html = await (await fetch(`${url}${route}`, { headers: { accept: 'text/html' } })).text();
      expect(html, route).not.toContain('qrshirt-stripe-publishable-key');
      expect(html, route).toMatch(/^<!doctype html><html( lang="en")?><head><title>/);
    }
  });
});
