import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  charityList,
  charity as charitySchema,
  fundraiserDetails,
  shirt as shirtSchema,
  shirtList,
} from '@qrshirt/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { createQueryClient } from '@/lib/query-client';
import { HomeRoute } from '../routes/home';
import { StaticContent } from './islands';
import type { LandingCacheData } from './landing-cache';
import { type LandingData, LandingPage, seedLandingQueries } from './landing-page';
import { PAGE_DATA_ID } from './page-data';
import { ServerPageShell } from './page-shell';
import { SHIRT_PAGE_PATH, type ShirtData, ShirtPage, seedShirtQueries } from './shirt-page';
import { seedShopQueries, type ShopData, ShopPage } from './shop-page';

/** The server pages' build's entries, as web/vite.config.ts names them. */
const BOOT_ENTRY = 'src/app/server-pages/boot.ts';
const STYLES_ENTRY = 'src/app/server-pages/pages.css';
// The landing's layout comes later than its script, but its stylesheets must be there at once.
const LANDING_CLIENT: PageClient = {
  modules: ['src/app/server-pages/landing-script.ts', 'src/app/server-pages/landing-layout.tsx'],
};
const HOME_CLIENT: PageClient = { modules: ['src/app/server-pages/home-client.tsx'] };
const SHOP_CLIENT: PageClient = { modules: ['src/app/server-pages/shop-client.tsx'] };
const SHIRT_CLIENT: PageClient = {
  modules: ['src/app/server-pages/shirt-client.tsx'],
  styles: 'src/app/server-pages/shirt.css',
};

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/** What the gateway read: the API's fundraiser details and charity, or nothing by that id or code. */
export interface LandingRequest {
  /** The path and query the browser asked for. */
  url: string;
  found: { fundraiser: unknown; charity: unknown } | null;
}

/** What the gateway read for the shop: the catalogue as GET /api/shirts answers it. */
export interface ShopRequest {
  url: string;
  shirts: unknown;
}

/** What the gateway read for a shirt's page: the shirt, and the charities a signup may choose. */
export interface ShirtRequest {
  url: string;
  shirt: unknown;
  charities: unknown;
}

export interface RenderedPage {
  status: 200 | 404;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);

/**
 * JSON inside a `<script type="application/json">`: nothing in it may close the element or open
 * a comment, whatever a charity's name holds; JSON.parse reads the escapes back as they were.
 */
const JSON_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => JSON_ESCAPES[c]!);

/** The build's entries and dynamic entries by source path, from the server pages' build's manifest. */
type Manifest = Record<string, ManifestChunk>;

function readManifest(distDir: string): Manifest {
  return JSON.parse(readFileSync(path.join(distDir, '.vite/server-pages-manifest.json'), 'utf8')) as Manifest;
}

/** The stylesheets a module's chunk and every chunk it imports statically bring with them. */
function chunkStyles(manifest: Manifest, key: string, seen = new Set<string>()): string[] {
  if (seen.has(key)) return [];
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) return [];
  return [...(chunk.css ?? []), ...(chunk.imports ?? []).flatMap((imported) => chunkStyles(manifest, imported, seen))];
}

/** What a page's client is made of, as the server pages' build names it (web/vite.config.ts). */
interface PageClient {
  /** The modules boot.ts loads to make the page live, whose stylesheets the page holds. */
  modules: string[];
  /** A stylesheet of the page's own beside pages.css, if it has one. */
  styles?: string;
}

/**
 * A page's stylesheets, written into it (no request before the first paint), and its one script,
 * which records a scan on the landing and later loads what hydrates the page. The components' own
 * stylesheets (CSS modules) would come with their chunks, once the page has painted: they are
 * written in too, so nothing moves when those arrive.
 */
function clientTags(distDir: string, page: PageClient): string {
  const manifest = readManifest(distDir);
  const file = (key: string) => {
    const found = manifest[key];
    if (!found) throw new Error(`the server pages' build manifest has no ${key}: rebuild web/dist`);
    return found.file;
  };
  const files = [
    file(STYLES_ENTRY),
    ...(page.styles ? [file(page.styles)] : []),
    ...new Set(page.modules.flatMap((module) => chunkStyles(manifest, module))),
  ];
  // Nothing in a stylesheet can close the element, and no style comes from data.
  const styles = files.map((name) => readFileSync(path.join(distDir, name), 'utf8')).join('');
  return `<style>${styles}</style>\n    <script type="module" async src="/${file(BOOT_ENTRY)}"></script>`;
}

function landingData(found: LandingRequest['found']): LandingData {
  if (!found) return { found: false };
  return {
    found: true,
    fundraiser: fundraiserDetails.parse(found.fundraiser),
    charity: charitySchema.parse(found.charity),
  };
}

/** The document around a server-rendered page's body, with the data its client hydrates from, if any. */
function pageDocument(tags: string, { title, body, data }: { title: string; body: string; data?: unknown }): string {
  const dataTag =
    data === undefined ? '' : `\n    <script type="application/json" id="${PAGE_DATA_ID}">${scriptJson(data)}</script>`;
  return `<!doctype html>
<html lang="en" data-mantine-color-scheme="light">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="description" content="Shirts with a QR code that turn a stranger's curiosity into a charity donation." />
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <title>${escapeHtml(title)}</title>
    ${tags}
  </head>
  <body>
    <div id="root">${body}</div>${dataTag}
  </body>
</html>
`;
}

/** A page's content in the server pages' shell, as HTML, from a query cache its data was put in. */
function renderBody(url: string, queryClient: QueryClient, page: ReactNode, path?: string): string {
  const body = renderToString(
    <StaticRouter location={url}>
      <ServerPageShell queryClient={queryClient} path={path}>
        {page}
      </ServerPageShell>
    </StaticRouter>,
  );
  queryClient.clear();
  return body;
}

/**
 * The server side of the QR landing (issue 16): the page as HTML that already holds the
 * fundraiser and its charity, of which the browser hydrates only the layout and the islands
 * (islands.tsx), from the props each island's element holds. `distDir` is the client build,
 * whose server pages' manifest names the files the page loads.
 */
export function createLandingRenderer(distDir: string): (request: LandingRequest) => RenderedPage {
  const tags = clientTags(distDir, LANDING_CLIENT);
  return ({ url, found }) => {
    const data = landingData(found);
    const queryClient = createQueryClient();
    seedLandingQueries(queryClient, data);
    const body = renderBody(
      url,
      queryClient,
      <StaticContent>
        <LandingPage data={data} />
      </StaticContent>,
    );
    const title = data.found ? `Support ${data.charity.name} · QR Shirts for Charity` : 'QR Shirts for Charity';
    const cached: LandingCacheData | undefined = data.found ? { charity: data.charity } : undefined;
    return { status: data.found ? 200 : 404, html: pageDocument(tags, { title, body, data: cached }) };
  };
}

/**
 * The homepage, rendered on the server as the landing is: it reads no data, so it is rendered
 * once and the same HTML answers every visit.
 */
export function createHomeRenderer(distDir: string): () => RenderedPage {
  const body = renderBody('/', createQueryClient(), <HomeRoute />);
  const html = pageDocument(clientTags(distDir, HOME_CLIENT), { title: 'QR Shirts for Charity', body });
  return () => ({ status: 200, html });
}

/** The shop, rendered on the server with the catalogue it lists. */
export function createShopRenderer(distDir: string): (request: ShopRequest) => RenderedPage {
  const tags = clientTags(distDir, SHOP_CLIENT);
  return ({ url, shirts }) => {
    const data: ShopData = { shirts: shirtList.parse(shirts) };
    const queryClient = createQueryClient();
    seedShopQueries(queryClient, data);
    const body = renderBody(url, queryClient, <ShopPage />);
    return { status: 200, html: pageDocument(tags, { title: 'Shop · QR Shirts for Charity', body, data }) };
  };
}

/** A shirt's page, rendered on the server with the shirt and the charities its waitlist form offers. */
export function createShirtRenderer(distDir: string): (request: ShirtRequest) => RenderedPage {
  const tags = clientTags(distDir, SHIRT_CLIENT);
  return ({ url, shirt, charities }) => {
    const data: ShirtData = { shirt: shirtSchema.parse(shirt), charities: charityList.parse(charities) };
    const queryClient = createQueryClient();
    seedShirtQueries(queryClient, data);
    const body = renderBody(url, queryClient, <ShirtPage />, SHIRT_PAGE_PATH);
    const title = `${data.shirt.name} · QR Shirts for Charity`;
    return { status: 200, html: pageDocument(tags, { title, body, data }) };
  };
}
