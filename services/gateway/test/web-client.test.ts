import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webClient } from '../src/http/web-client';

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
    writeFileSync(path.join(publicDir, 'images', 'shirt.svg'), '<svg/>');
    const app = express().use(webClient({ distDir: dist, publicDir }));
    await new Promise<void>((resolve) => {
      server = app.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(() => {
    server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers every client route with index.html, never cached', async () => {
    for (const route of ['/', '/shop', '/fundraiser/abc?scan=true', '/no/such/page']) {
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

  it('serves the seed images and keeps a missing file a 404', async () => {
    expect((await fetch(`${url}/images/shirt.svg`)).status).toBe(200);
    expect((await fetch(`${url}/images/missing.svg`)).status).toBe(404);
    expect((await fetch(`${url}/assets/gone-123.js`)).status).toBe(404);
  });
});
