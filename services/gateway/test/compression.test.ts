import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  createFundraiser,
  findExecutable,
  freePort,
  infraRequired,
  killUnlessReady,
  type LaunchedProcess,
  launchProcess,
  scaled,
  waitForUrl,
} from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLiveStream } from './support/live-stream';
import { type RawAnswer, rawGet } from './support/raw-get';
import { asUser, startTestServer, type TestServer, userToken } from './support/test-server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const webDir = path.join(repoRoot, 'web');
const distDir = path.join(webDir, 'dist');

interface RouteBudget {
  module: string;
  /** The build manifest that names `module`, in web/dist/.vite; the app's manifest.json unless said. */
  manifest?: string;
  br: number;
  gzip: number;
}
const budget = JSON.parse(readFileSync(path.join(webDir, 'byte-budget.json'), 'utf8')) as {
  routes: Record<string, RouteBudget>;
};

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const encodings = ['br', 'gzip'] as const;
type Encoding = (typeof encodings)[number];
const decode: Record<Encoding, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

/** Buffer.equals: vitest's toEqual walks a typed array byte by byte, seconds for a bundle. */
function expectSameBytes(actual: Buffer, expected: Buffer, what: string) {
  expect({ what, length: actual.length, same: actual.equals(expected) }).toEqual({
    what,
    length: expected.length,
    same: true,
  });
}

/** The spec's threshold: an answer under it is not worth a decoder's start-up. */
const SMALL = 1024;

/** What the HTML makes the browser fetch at once: its scripts, module preloads and stylesheets. */
function referencedFiles(html: string): string[] {
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  return tags.flatMap((tag) => {
    const url = /\b(?:src|href)="(\/assets\/[^"]+)"/.exec(tag)?.[1];
    if (!url) return [];
    if (tag.startsWith('<script') || /\brel="(modulepreload|stylesheet)"/.test(tag)) return [url];
    return [];
  });
}

/** The route's lazy module, the chunks it imports statically, and their stylesheets. */
function routeFiles(manifest: Manifest, module: string): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the build manifest has no ${key}`);
    files.push(`/${chunk.file}`, ...(chunk.css ?? []).map((css) => `/${css}`));
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(module);
  return files;
}

let server: TestServer;
let manifests: Record<string, Manifest>;
let routes: Record<string, string>;
const ownerId = 'compression-owner';
let fundraiserId: string;

beforeAll(async () => {
  // The gateway serves web/dist; `npm start` builds it the same way when the sources changed.
  const build = launchProcess({
    name: 'web build',
    entry: path.join(webDir, 'scripts/build-if-stale.ts'),
    cwd: repoRoot,
  });
  expect(await build.exited, build.output.join('\n')).toBe(0);
  manifests = Object.fromEntries(
    Object.entries(budget.routes).map(([route, { manifest = 'manifest.json' }]) => [
      route,
      JSON.parse(readFileSync(path.join(distDir, '.vite', manifest), 'utf8')) as Manifest,
    ]),
  );
  server = await startTestServer();
  const fundraiser = await createFundraiser(server.api, asUser(ownerId));
  fundraiserId = fundraiser.id;
  routes = Object.fromEntries(
    Object.keys(budget.routes).map((route) => [
      route,
      route.replace('{id}', route.startsWith('/shirt/') ? fundraiser.shirtId : fundraiser.id),
    ]),
  );
}, scaled(300_000));
afterAll(() => server?.stop());

function expectEncoded(answer: RawAnswer, encoding: Encoding, plain: Buffer, what: string) {
  expect(answer.status, what).toBe(200);
  expect(answer.headers.vary, what).toMatch(/\bAccept-Encoding\b/i);
  if (plain.length < SMALL) {
    expect(answer.headers['content-encoding'], what).toBeUndefined();
    expectSameBytes(answer.body, plain, what);
  } else {
    expect(answer.headers['content-encoding'], what).toBe(encoding);
    expectSameBytes(decode[encoding](answer.body), plain, what);
    expect(answer.body.length, what).toBeLessThan(plain.length);
  }
}

describe('compressed answers and the byte budget per page', () => {
  it('sends each page and every file it needs to render in the encoding asked for, decoding to the same bytes', async () => {
    for (const [route, { module }] of Object.entries(budget.routes)) {
      const manifest = manifests[route]!;
      const url = `${server.url}${routes[route]}`;
      const plainHtml = await rawGet(url, { 'accept-encoding': 'identity' });
      expect(plainHtml.headers['content-encoding'], route).toBeUndefined();
      const files = [...new Set([...referencedFiles(plainHtml.body.toString()), ...routeFiles(manifest, module)])];
      // The landing's stylesheet is in its HTML: its script is its one file before it renders.
      expect(files.length, route).toBeGreaterThan(0);
      for (const encoding of encodings) {
        const html = await rawGet(url, { 'accept-encoding': encoding });
        expectEncoded(html, encoding, plainHtml.body, `${route} ${encoding}`);
        // Compression comes after the security headers, never instead of them.
        expect(html.headers['content-security-policy'], route).toContain("default-src 'self'");
        for (const file of files) {
          const answer = await rawGet(`${server.url}${file}`, { 'accept-encoding': encoding });
          expectEncoded(answer, encoding, readFileSync(path.join(distDir, file)), `${file} ${encoding}`);
          expect(answer.headers['cache-control'], file).toBe('public, max-age=31536000, immutable');
        }
      }
    }
  });

  it("keeps every page's compressed HTML, scripts and stylesheets within web/byte-budget.json", async () => {
    const measured: Record<string, Record<Encoding | 'identity', number>> = {};
    for (const [route, { module }] of Object.entries(budget.routes)) {
      const manifest = manifests[route]!;
      const url = `${server.url}${routes[route]}`;
      const html = (await rawGet(url)).body.toString();
      const files = [...new Set([...referencedFiles(html), ...routeFiles(manifest, module)])];
      measured[route] = { br: 0, gzip: 0, identity: 0 };
      for (const encoding of ['br', 'gzip', 'identity'] as const) {
        for (const target of [url, ...files.map((file) => `${server.url}${file}`)]) {
          measured[route][encoding] += (await rawGet(target, { 'accept-encoding': encoding })).body.length;
        }
      }
    }
    console.log(`bytes per page, as sent:\n${JSON.stringify(measured, null, 2)}`);
    for (const [route, limits] of Object.entries(budget.routes)) {
      for (const encoding of encodings) {
        expect(measured[route]![encoding], `${route} ${encoding}`).toBeLessThanOrEqual(limits[encoding]);
      }
    }
  });

  it('compresses JSON answers on the fly and leaves answers under 1 KB as they are', async () => {
    const plain = await rawGet(`${server.url}/api/openapi.json`, { 'accept-encoding': 'identity' });
    expect(plain.body.length).toBeGreaterThan(SMALL);
    for (const encoding of encodings) {
      const answer = await rawGet(`${server.url}/api/openapi.json`, { 'accept-encoding': encoding });
      expectEncoded(answer, encoding, plain.body, `openapi.json ${encoding}`);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    }
    const small = await rawGet(`${server.url}/healthz`, { 'accept-encoding': 'br, gzip' });
    expect(small.body.length).toBeLessThan(SMALL);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toHaveProperty('status');
  });

  it("sends the scan route's answer past compression, which never sees it, with the security headers", async () => {
    // Compression marks every answer it considers with Vary, tiny ones included (see /healthz).
    const health = await rawGet(`${server.url}/healthz`, { 'accept-encoding': 'br, gzip' });
    expect(health.headers.vary).toMatch(/\bAccept-Encoding\b/i);
    const scan = await server.api('POST', `/api/fundraisers/${fundraiserId}/scan`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(scan.status).toBe(202);
    expect(scan.body).toEqual({ scanId: expect.any(String) });
    expect(scan.headers.get('content-encoding')).toBeNull();
    expect(scan.headers.get('vary')).toBeNull();
    expect(scan.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(scan.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('gives a file compressed on the fly a weak ETag, which still revalidates to 304', async () => {
    // The seed images: SVG text, served from the gateway's public folder without twins.
    const image = `${server.url}/images/shirts/free-wifi-1.svg`;
    const [br, plain] = [await rawGet(image, { 'accept-encoding': 'br' }), await rawGet(image)];
    expect(plain.body.length).toBeGreaterThan(SMALL);
    expectEncoded(br, 'br', plain.body, image);
    expect(br.headers.etag).toMatch(/^W\//);
    expect(plain.headers.etag).toBe(br.headers.etag);
    const revalidated = await rawGet(image, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe(br.headers.etag);
  });

  it('sends nothing compressed to a client that accepts no encoding', async () => {
    const html = await rawGet(`${server.url}/shop`);
    expect(html.headers['content-encoding']).toBeUndefined();
    const entry = referencedFiles(html.body.toString()).find((file) => file.endsWith('.js'))!;
    const script = await rawGet(`${server.url}${entry}`);
    expect(script.headers['content-encoding']).toBeUndefined();
    expectSameBytes(script.body, readFileSync(path.join(distDir, entry)), entry);
  });

  it('leaves the live event stream uncompressed, so each event arrives as it is sent', async () => {
    const stream = await openLiveStream(server.url, `/api/fundraisers/${fundraiserId}/live`, {
      token: userToken(ownerId),
      headers: { 'x-user-id': ownerId, 'accept-encoding': 'br, gzip' },
    });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-encoding')).toBeNull();
      await stream.next(() => true);
    } finally {
      stream.close();
    }
  });
});

const nginx = findExecutable('nginx', ['/usr/sbin/nginx']);
const noNginx = 'nginx not found (run scripts/infra/install-nginx.sh)';
const withNginx = nginx !== undefined || infraRequired('nginx');
if (!withNginx) console.warn(`[nginx] the compose proxy's compression check skipped: ${noNginx}`);

describe.skipIf(!withNginx)("through the compose proxy (deploy/nginx.conf in Debian's nginx)", () => {
  let workDir = '';
  let proxy: LaunchedProcess | undefined;
  let proxyUrl = '';

  beforeAll(async () => {
    if (!nginx) throw new Error(`REQUIRE_INFRA names nginx, but ${noNginx}`);
    workDir = mkdtempSync(path.join(tmpdir(), 'qrshirt-nginx-'));
    const proxyPort = await freePort();
    proxyUrl = `http://127.0.0.1:${proxyPort}`;
    // The compose file's server block as it is, the replicas' name and the published port swapped
    // for this gateway and a free loopback port, inside the main config the nginx image gives it.
    const conf = readFileSync(path.join(repoRoot, 'deploy/nginx.conf'), 'utf8');
    const block = conf
      .replace(/server gateway:\d+/, `server ${new URL(server.url).host}`)
      .replace(/listen \d+;/, `listen 127.0.0.1:${proxyPort};`);
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
        block,
        '}',
      ].join('\n'),
    );
    proxy = launchProcess({
      name: 'nginx',
      command: [nginx, '-p', workDir, '-c', temp('nginx.conf'), '-e', temp('error.log')],
    });
    await killUnlessReady(proxy, waitForUrl(proxy, `${proxyUrl}/healthz`));
  });

  afterAll(async () => {
    await proxy?.terminate();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it("passes the gateway's brotli and gzip answers through byte for byte, with their Vary and ETag", async () => {
    const page = (await rawGet(`${server.url}/shop`)).body.toString();
    const entry = referencedFiles(page).find((file) => file.endsWith('.js'))!;
    for (const encoding of encodings) {
      for (const target of ['/shop', entry, '/api/openapi.json']) {
        const direct = await rawGet(`${server.url}${target}`, { 'accept-encoding': encoding });
        const proxied = await rawGet(`${proxyUrl}${target}`, { 'accept-encoding': encoding });
        const what = `${target} ${encoding}`;
        expect(proxied.status, what).toBe(200);
        expect(proxied.headers['content-encoding'], what).toBe(encoding);
        expect(proxied.headers.vary, what).toMatch(/\bAccept-Encoding\b/i);
        expect(proxied.headers.etag, what).toBe(direct.headers.etag);
        expect(proxied.headers['cache-control'], what).toBe(direct.headers['cache-control']);
        expectSameBytes(proxied.body, direct.body, what);
      }
    }
  });

  it('leaves a small answer plain, as the gateway does', async () => {
    const health = await rawGet(`${proxyUrl}/healthz`, { 'accept-encoding': 'br, gzip' });
    expect(health.status).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
  });
});
