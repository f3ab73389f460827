import { readFileSync } from 'node:fs';
import path from 'node:path';
import { charity as charitySchema, fundraiserDetails } from '@qrshirt/contracts';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { createQueryClient } from '@/lib/query-client';
import { HomeRoute } from '../routes/home';
import { LANDING_DATA_ID, type LandingData, LandingPage, seedLandingQueries } from './landing-page';
import { ServerPageShell } from './page-shell';

/** The landing build's entries, as web/vite.config.ts names them. */
const BOOT_ENTRY = 'src/app/landing/boot.ts';
const STYLES_ENTRY = 'src/app/landing/landing.css';

interface ManifestChunk {
  file: string;
}

/** What the gateway read: the API's fundraiser details and charity, or nothing by that id or code. */
export interface LandingRequest {
  /** The path and query the browser asked for. */
  url: string;
  found: { fundraiser: unknown; charity: unknown } | null;
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
  // Nothing in a stylesheet can close the element, and no style comes from data.
  const styles = readFileSync(path.join(distDir, file(STYLES_ENTRY)), 'utf8');
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
    data === undefined
      ? ''
      : `\n    <script type="application/json" id="${LANDING_DATA_ID}">${scriptJson(data)}</script>`;
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
    const body = renderToString(
      <StaticRouter location={url}>
        <LandingPage queryClient={queryClient} data={data} />
      </StaticRouter>,
    );
    queryClient.clear();
    const title = data.found ? `Support ${data.charity.name} · QR Shirts for Charity` : 'QR Shirts for Charity';
    return { status: data.found ? 200 : 404, html: pageDocument(tags, { title, body, data }) };
  };
}

/**
 * The homepage, rendered on the server as the landing is (issue 16): it reads no data, so it is
 * rendered once and the same HTML answers every visit.
 */
export function createHomeRenderer(distDir: string): () => RenderedPage {
  const body = renderToString(
    <StaticRouter location="/">
      <ServerPageShell queryClient={createQueryClient()}>
        <HomeRoute />
      </ServerPageShell>
    </StaticRouter>,
  );
  const html = pageDocument(clientTags(distDir), { title: 'QR Shirts for Charity', body });
  return () => ({ status: 200, html });
}
