import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  findExecutable,
  freePort,
  infraRequired,
  killUnlessReady,
  type LaunchedProcess,
  launchProcess,
  waitForUrl,
} from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const nginxConf = readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8');

/** The config's directives, comments left out, so a word in a comment is not taken for one. */
const directives = nginxConf
  .split('\n')
  .map((line) => line.replace(/#.*/, '').trim())
  .filter(Boolean)
  .join('\n');

describe('deploy/nginx.conf and compression', () => {
  it('leaves compression to the gateways: nginx neither compresses again nor decodes', () => {
    expect(directives).toMatch(/^gzip off;$/m);
    expect(directives).not.toMatch(/\bgunzip on\b/);
    expect(directives).not.toMatch(/\bgzip_static\b|\bbrotli/);
  });

  it("forwards the client's Accept-Encoding and keeps the gateway's headers", () => {
    expect(directives).not.toMatch(/proxy_set_header\s+Accept-Encoding/i);
    expect(directives).not.toMatch(/proxy_hide_header|proxy_ignore_headers|more_clear_headers/);
    // No cache here: a cached answer would have to honour Vary, which nothing would test.
    expect(directives).not.toMatch(/proxy_cache\b/);
  });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET whose body stays as it came over the wire (fetch would decode it). */
function get(url: string, acceptEncoding: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const nginx = findExecutable('nginx', ['/usr/sbin/nginx']);
const reason = 'nginx not found (run scripts/infra/install-nginx.sh)';
const canRun = nginx !== undefined || infraRequired('nginx');
if (!canRun) console.warn(`[nginx] the proxy's compression check skipped: ${reason}`);

describe.skipIf(!canRun)('deploy/nginx.conf in front of a gateway', () => {
  let workDir = '';
  let gateway: LaunchedProcess | undefined;
  let proxy: LaunchedProcess | undefined;
  let gatewayUrl = '';
  let proxyUrl = '';

  beforeAll(async () => {
    if (!nginx) throw new Error(`REQUIRE_INFRA names nginx, but ${reason}`);
    workDir = mkdtempSync(path.join(tmpdir(), 'qrshirt-nginx-'));
    const build = launchProcess({
      name: 'web build',
      entry: path.join(root, 'web/scripts/build-if-stale.ts'),
      cwd: root,
    });
    expect(await build.exited, build.output.join('\n')).toBe(0);

    const [gatewayPort, proxyPort] = [await freePort(), await freePort()];
    gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    proxyUrl = `http://127.0.0.1:${proxyPort}`;
    gateway = launchProcess({
      name: 'gateway',
      entry: path.join(root, 'services/gateway/src/main.ts'),
      cwd: root,
      env: { PORT: String(gatewayPort), HOST: '127.0.0.1', DATA_DIR: path.join(workDir, 'data'), LOG_LEVEL: 'warn' },
    });
    await killUnlessReady(gateway, waitForUrl(gateway, `${gatewayUrl}/healthz`, { timeoutMs: 90_000 }));

    // The compose file's server block as it is, with the compose names swapped for loopback ports,
    // inside the main config the official image would give it.
    const server = nginxConf
      .replace(/server gateway:\d+/, `server 127.0.0.1:${gatewayPort}`)
      .replace(/listen \d+;/, `listen 127.0.0.1:${proxyPort};`);
    expect(server).not.toBe(nginxConf);
    const temp = (name: string) => path.join(workDir, name);
    writeFileSync(
      temp('nginx.conf'),
      [
        'daemon off;',
        `pid ${temp('nginx.pid')};`,
        'events {}',
        'http {',
        '  access_log off;',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${temp(kind)};`),
        server,
        '}',
      ].join('\n'),
    );
    proxy = launchProcess({
      name: 'nginx',
      command: [nginx, '-p', workDir, '-c', temp('nginx.conf'), '-e', temp('error.log')],
    });
    await killUnlessReady(proxy, waitForUrl(proxy, `${proxyUrl}/healthz`, { timeoutMs: 30_000 }));
  }, 300_000);

  afterAll(async () => {
    await proxy?.terminate();
    await gateway?.terminate();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it("passes the gateway's brotli and gzip answers through byte for byte, with their Vary and ETag", async () => {
    const page = await get(`${gatewayUrl}/shop`, 'identity');
    const entry = /<script type="module" crossorigin src="([^"]+)"/.exec(page.body.toString())?.[1];
    expect(entry).toBeDefined();
    for (const encoding of ['br', 'gzip']) {
      for (const target of ['/shop', entry!, '/api/openapi.json']) {
        const [direct, proxied] = [
          await get(`${gatewayUrl}${target}`, encoding),
          await get(`${proxyUrl}${target}`, encoding),
        ];
        const what = `${target} ${encoding}`;
        expect(proxied.status, what).toBe(200);
        expect(proxied.headers['content-encoding'], what).toBe(encoding);
        expect(proxied.headers.vary, what).toMatch(/\bAccept-Encoding\b/i);
        expect(proxied.headers.etag, what).toBe(direct.headers.etag);
        expect(proxied.headers['cache-control'], what).toBe(direct.headers['cache-control']);
        expect(proxied.body.equals(direct.body), what).toBe(true);
      }
    }
  });

  it('leaves a small answer plain, as the gateway does', async () => {
    const health = await get(`${proxyUrl}/healthz`, 'br, gzip');
    expect(health.status).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString())).toEqual({ status: 'ok' });
  });
});
