import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import express, { type Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageReads } from '../src/http/server-pages';
import { webClient } from '../src/http/web-client';
import { rawGet } from './support/raw-get';

/** The app on a free loopback port. */
async function listen(app: Express): Promise<{ server: Server; url: string }> {
  const server = await new Promise<Server>((resolve) => {
    const listening: Server = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const address = server.address();
  return { server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/** A bundle large enough to be worth compressing, and its twins as the build writes them. */
const bundle = Buffer.from(`export const words = ${JSON.stringify('shirt '.repeat(400))};\n`);

/** A catalogue and fundraisers with nothing in them. */
const nothingToRead: PageReads = {
  landing: async () => null,
  shirts: async () => [],
  shirt: async () => null,
  charities: async () => [],
};

describe('serving the web client', () => {
  let root: string;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'web-client-'));
    const dist = path.join(root, 'dist');
    const publicDir = path.join(root, 'public');
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    mkdirSync(path.join(publicDir, 'images'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dist, 'assets', 'big-def456.js'), bundle);
    writeFileSync(path.join(dist, 'assets', 'big-def456.js.br'), brotliCompressSync(bundle));
    writeFileSync(path.join(dist, 'assets', 'big-def456.js.gz'), gzipSync(bundle));
    writeFileSync(path.join(publicDir, 'images', 'shirt.svg'), '<svg/>');
    const fundraiserIdByShortCode = async (code: string) => (code.toLowerCase() === 'abcd2345' ? 'f-1' : null);
    // No landing module built here: the landing is the client's index.html, as before a build.
    const app = express().use(
      webClient({
        distDir: dist,
        publicDir,
        fundraiserIdByShortCode,
        read: nothingToRead,
        serverPagesModule: path.join(root, 'dist-server', 'entry-server.js'),
      }),
    );
    ({ server, url } = await listen(app));
  });

  afterAll(() => {
    server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers every client route with index.html, never cached', async () => {
    for (const route of ['/', '/shop', '/fundraiser/abc?scan=true', '/no/such/page', '/%E0%A4%A']) {
      const answer = await fetch(`${url}${route}`);
      expect({ route, status: answer.status, body: await answer.text() }).toEqual({
        route,
        status: 200,
        body: '<!doctype html><title>app</title>',
      });
      expect(answer.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('caches the hashed bundles for a year', async () => {
    const answer = await fetch(`${url}/assets/index-abc123.js`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it("sends the build's brotli or gzip twin of a bundle, as the client accepts, each a cacheable variant of its own", async () => {
    const assetUrl = `${url}/assets/big-def456.js`;
    const br = await rawGet(assetUrl, { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await rawGet(assetUrl, { 'accept-encoding': 'gzip' });
    const plain = await rawGet(assetUrl);
    expect([
      br.headers['content-encoding'],
      gzip.headers['content-encoding'],
      plain.headers['content-encoding'],
    ]).toEqual(['br', 'gzip', undefined]);
    expect(brotliDecompressSync(br.body)).toEqual(bundle);
    expect(gunzipSync(gzip.body)).toEqual(bundle);
    expect(plain.body).toEqual(bundle);
    for (const answer of [br, gzip, plain]) {
      expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    // A cache that keeps one variant must never hand it out for another.
    expect(new Set([br, gzip, plain].map((answer) => answer.headers.etag)).size).toBe(3);
    const revalidated = await rawGet(assetUrl, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
    expect(revalidated.status).toBe(304);
    const withQuery = await rawGet(`${assetUrl}?v=2`, { 'accept-encoding': 'gzip;q=0.5, br;q=0' });
    expect(withQuery.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(withQuery.body)).toEqual(bundle);
  });

  it('serves the seed images and keeps a missing file a 404', async () => {
    expect((await fetch(`${url}/images/shirt.svg`)).status).toBe(200);
    expect((await fetch(`${url}/images/missing.svg`)).status).toBe(404);
    expect((await fetch(`${url}/assets/gone-123.js`)).status).toBe(404);
  });

  it("answers a page opened at any other address, a file's name included, with the app (its Page Not Found) and a 404", async () => {
    const opened = await fetch(`${url}/anything.txt`, { headers: { accept: 'text/html,*/*;q=0.8' } });
    expect(opened.status).toBe(404);
    expect(await opened.text()).toBe('<!doctype html><title>app</title>');
    const fetched = await fetch(`${url}/anything.txt`);
    expect(fetched.status).toBe(404);
    expect(await fetched.text()).not.toContain('<title>app</title>');
  });

  it("sends a short link on to its fundraiser's page as a scan, in any case, and never lets it be cached", async () => {
    for (const code of ['abcd2345', 'ABCD2345']) {
      const answer = await fetch(`${url}/q/${code}`, { redirect: 'manual' });
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toBe('/fundraiser/f-1?scan=true');
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers an unknown short link with the app (its not-found view) and a 404', async () => {
    for (const code of ['zzzz2345', 'not-a-code', '%3Cscript%3E', '%FF']) {
      const answer = await fetch(`${url}/q/${code}`, { redirect: 'manual' });
      expect({ code, status: answer.status, body: await answer.text() }).toEqual({
        code,
        status: 404,
        body: '<!doctype html><title>app</title>',
      });
    }
  });
});

describe('the QR landing and the homepage rendered by the built server module', () => {
  let root: string;
  let server: Server;
  let url: string;
  const read: string[] = [];
  let shirtsBroken = false;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'web-client-landing-'));
    const dist = path.join(root, 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
    // A stand-in for web/dist-server/entry-server.js, with the exports the gateway relies on.
    const serverBundle = path.join(root, 'entry-server.mjs');
    writeFileSync(
      serverBundle,
      `export const createLandingRenderer = (distDir) => ({ url, found }) => ({
        status: found ? 200 : 404,
        html: found ? 'landing of ' + found.fundraiser.id + ' at ' + url + ' from ' + distDir : 'Fundraiser not found',
      });
      export const createHomeRenderer = (distDir) => () => ({ status: 200, html: 'home from ' + distDir });
      export const createShopRenderer = () => ({ url, shirts }) => ({ status: 200, html: 'shop of ' + shirts.join() + ' at ' + url });
      export const createShirtRenderer = () => ({ url, shirt, charities }) => ({
        status: 200,
        html: 'shirt ' + shirt.id + ' with ' + charities.join() + ' at ' + url,
      });`,
    );
    const readLanding = async (id: string) => {
      read.push(id);
      if (id === 'broken') throw new Error('the read model is gone');
      return id === 'f-1' ? { fundraiser: { id }, charity: {} } : null;
    };
    const app = express().use(
      webClient({
        distDir: dist,
        publicDir: path.join(root, 'public'),
        fundraiserIdByShortCode: async () => null,
        read: {
          landing: readLanding,
          shirts: async () => {
            if (shirtsBroken) throw new Error('the catalogue is gone');
            return ['s-1', 's-2'];
          },
          shirt: async (id) => (id === 'sh-1' ? { id } : null),
          charities: async () => ['c-1'],
        },
        serverPagesModule: serverBundle,
      }),
    );
    ({ server, url } = await listen(app));
  });

  afterAll(() => {
    server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('renders a fundraiser it can read, revalidated on every visit, and a 404 for one nobody has', async () => {
    const page = await fetch(`${url}/fundraiser/f-1?scan=true`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toBe(`landing of f-1 at /fundraiser/f-1?scan=true from ${path.join(root, 'dist')}`);
    const unknown = await fetch(`${url}/fundraiser/nobody`);
    expect({ status: unknown.status, body: await unknown.text() }).toEqual({
      status: 404,
      body: 'Fundraiser not found',
    });
    const shortLink = await fetch(`${url}/q/zzzz2345`, { redirect: 'manual' });
    expect({ status: shortLink.status, body: await shortLink.text() }).toEqual({
      status: 404,
      body: 'Fundraiser not found',
    });
  });

  it("renders the homepage, the shop and a shirt's page, revalidated on every visit, and leaves the other pages to the client", async () => {
    const home = await fetch(url);
    expect({ status: home.status, body: await home.text() }).toEqual({
      status: 200,
      body: `home from ${path.join(root, 'dist')}`,
    });
    expect(home.headers.get('cache-control')).toBe('no-cache');
    const shop = await fetch(`${url}/shop?from=home`);
    expect({ status: shop.status, body: await shop.text() }).toEqual({
      status: 200,
      body: 'shop of s-1,s-2 at /shop?from=home',
    });
    expect(shop.headers.get('cache-control')).toBe('no-cache');
    shirtsBroken = true;
    const unread = await fetch(`${url}/shop`);
    shirtsBroken = false;
    expect({ status: unread.status, body: await unread.text() }).toEqual({
      status: 200,
      body: '<!doctype html><title>app</title>',
    });
    const shirt = await fetch(`${url}/shirt/sh-1`);
    expect({ status: shirt.status, body: await shirt.text() }).toEqual({
      status: 200,
      body: 'shirt sh-1 with c-1 at /shirt/sh-1',
    });
    // An unknown shirt is the client's "Shirt Not Found".
    for (const route of ['/shop/more', '/shirt/abc', '/shirt/%E0%A4%A', '/shirt/sh-1/more', '/dashboard']) {
      const answer = await fetch(`${url}${route}`);
      expect({ route, body: await answer.text() }).toEqual({ route, body: '<!doctype html><title>app</title>' });
    }
  });

  it("leaves to the client's index.html what it cannot read or that is no fundraiser's address", async () => {
    read.length = 0;
    for (const route of ['/fundraiser/broken', '/fundraiser/%E0%A4%A', '/fundraiser/', '/fundraiser/f-1/more']) {
      const answer = await fetch(`${url}${route}`);
      expect({ route, status: answer.status, body: await answer.text() }).toEqual({
        route,
        status: 200,
        body: '<!doctype html><title>app</title>',
      });
    }
    expect(read).toEqual(['broken']);
  });
});
