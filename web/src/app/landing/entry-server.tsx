import { readFileSync } from 'node:fs';
import path from 'node:path';
import { charity as charitySchema, fundraiserDetails, shirtList } from '@qrshirt/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { createQueryClient } from '@/lib/query-client';
import { HomeRoute } from '../routes/home';
import { ShopRoute } from '../routes/shop';
import { type LandingData, LandingPage, seedLandingQueries } from './landing-page';
import { PAGE_DATA_ID, ServerPageShell } from './page-shell';
import { seedShopQueries, type ShopData } from './shop-page';

/** The landing build's entries, as web/vite.config.ts names them. */
const BOOT_ENTRY = 'src/app/landing/boot.ts';
const STYLES_ENTRY = 'src/app/landing/landing.css';

interface ManifestChunk {
  file: string;
  css?: string[];
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

/**
 * A page's stylesheet, written into it (no request before the first paint), and its one script,
 * which records a scan on the landing and later loads what hydrates the page.
 */
function clientTags(distDir: string): string {
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/landing-manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const file = (key: string) => {
    const found = manifest[key];
    if (!found) throw new Error(`the landing build's manifest has no ${key}: rebuild web/dist`);
    return found.file;
  };
  // The components' own stylesheets (CSS modules) come with their chunks, which load only once the
  // page has painted: they are written in too, so nothing moves when they arrive.
  const componentStyles = Object.values(manifest).flatMap((chunk) => chunk.css ?? []);
  // Nothing in a stylesheet can close the element, and no style comes from data.
  const styles = [file(STYLES_ENTRY), ...new Set(componentStyles)]
    .map((file) => readFileSync(path.join(distDir, file), 'utf8'))
    .join('');
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
function renderBody(url: string, queryClient: QueryClient, page: ReactNode): string {
  const body = renderToString(
    <StaticRouter location={url}>
      <ServerPageShell queryClient={queryClient}>{page}</ServerPageShell>
    </StaticRouter>,
  );
  queryClient.clear();
  return body;
}

/**
 * The server side of the QR landing (issue 16): the page as HTML that already holds the
 * fundraiser and its charity, the same components the browser then hydrates, and the data they
 * hydrate from. `distDir` is the client build, whose landing manifest names the files the page loads.
 */
export function createLandingRenderer(distDir: string): (request: LandingRequest) => RenderedPage {
  const tags = clientTags(distDir);
  return ({ url, found }) => {
    const data = landingData(found);
    const queryClient = createQueryClient();
    seedLandingQueries(queryClient, data);
    const body = renderBody(url, queryClient, <LandingPage data={data} />);
    const title = data.found ? `Support ${data.charity.name} · QR Shirts for Charity` : 'QR Shirts for Charity';
    return { status: data.found ? 200 : 404, html: pageDocument(tags, { title, body, data }) };
  };
}

/**
 * The homepage, rendered on the server as the landing is: it reads no data, so it is rendered
 * once and the same HTML answers every visit.
 */
export function createHomeRenderer(distDir: string): () => RenderedPage {
  const body = renderBody('/', createQueryClient(), <HomeRoute />);
  const html = pageDocument(clientTags(distDir), { title: 'QR Shirts for Charity', body });
  return () => ({ status: 200, html });
}

/** The shop, rendered on the server with the catalogue it lists. */
export function createShopRenderer(distDir: string): (request: ShopRequest) => RenderedPage {
  const tags = clientTags(distDir);
  return ({ url, shirts }) => {
    const data: ShopData = { shirts: shirtList.parse(shirts) };
    const queryClient = createQueryClient();
    seedShopQueries(queryClient, data);
    const body = renderBody(url, queryClient, <ShopRoute />);
    return { status: 200, html: pageDocument(tags, { title: 'Shop · QR Shirts for Charity', body, data }) };
  };
}
