import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClient, signUp } from '@qrshirt/test-support';
import { loadConfig } from '../src/config';
import { webClient } from '../src/http/web-client';
import { startTestServer, type TestServer } from './support/test-server';

const META = '<meta name="qrshirt-anonymous-auth" content="false">';

describe('ANONYMOUS_AUTH', () => {
  it('is on unless set to false', () => {
    expect(loadConfig({}).ANONYMOUS_AUTH).toBe(true);
    expect(loadConfig({ ANONYMOUS_AUTH: 'true' }).ANONYMOUS_AUTH).toBe(true);
    expect(loadConfig({ ANONYMOUS_AUTH: 'false' }).ANONYMOUS_AUTH).toBe(false);
    expect(() => loadConfig({ ANONYMOUS_AUTH: 'off' })).toThrow('ANONYMOUS_AUTH: expected true or false');
  });
});

describe('a gateway with ANONYMOUS_AUTH=false', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { ANONYMOUS_AUTH: 'false' } });
  });
  afterAll(() => server.stop());

  it('refuses anonymous sign-in with a 403 that says why', async () => {
    const answer = await server.api('POST', '/api/auth/anonymous', { headers: newClient() });
    expect(answer).toMatchObject({ status: 403, body: { error: 'Anonymous sign-in is turned off on this site' } });
    expect(answer.headers.getSetCookie()).toEqual([]);
  });

  it('answers the public reads without any token, and still signs people up', async () => {
    const shirts = await server.api('GET', '/api/shirts');
    expect(shirts.status).toBe(200);
    expect((shirts.body as unknown[]).length).toBeGreaterThan(0);
    expect((await server.api('GET', '/api/charities')).status).toBe(200);
    const session = await signUp(server.api);
    expect(session.user.anonymous).toBe(false);
  });
});

describe('the pages of a gateway with ANONYMOUS_AUTH=false', () => {
  let root: string;
  const servers: Server[] = [];

  /** The web client of a gateway with the setting given, over a stand-in build, on a free port. */
  async function serve(anonymousAuth: boolean | undefined): Promise<string> {
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
        ...(anonymousAuth !== undefined && { anonymousAuth }),
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
    root = mkdtempSync(path.join(tmpdir(), 'anonymous-auth-off-'));
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

  const routes = ['/', '/shop', '/shirt/sh-1', '/fundraiser/f-1', '/signin', '/dashboard', '/no/such/page'];

  it('tell their client so in a meta tag, rendered on the server or not', async () => {
    const url = await serve(false);
    for (const route of routes) {
      const answer = await fetch(`${url}${route}`, { headers: { accept: 'text/html' } });
      const html = await answer.text();
      expect({ route, tagged: html.includes(`<head>${META}`) }).toEqual({ route, tagged: true });
    }
  });

  it('are served as built while the setting is on, its default', async () => {
    for (const setting of [undefined, true]) {
      const url = await serve(setting);
      for (const route of routes) {
        const html = await (await fetch(`${url}${route}`, { headers: { accept: 'text/html' } })).text();
        expect({ route, tagged: html.includes('qrshirt-anonymous-auth') }).toEqual({ route, tagged: false });
      }
    }
  });
});
