import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CatalogQueries, type CharityUseCases, DomainError, type FundraiserUseCases } from '@qrshirt/core';
import type { Response } from 'express';
import { webServerDir } from '../package-dirs';
import { type ClientSettings, withClientSettings } from './client-settings';

/**
 * The server-rendered pages' module (web/src/app/server-pages/entry-server.tsx), which `npm start`
 * builds with the client. The gateway imports the built file by its path at run time, never the
 * web's sources: this interface is the whole of what it relies on.
 */
const serverPagesBundle = path.join(webServerDir, 'entry-server.js');

/** A fundraiser and its charity as the API answers them; null when no fundraiser has that id. */
export type LandingFound = { fundraiser: unknown; charity: unknown } | null;

interface RenderedPage {
  status: number;
  html: string;
}
type LandingRenderer = (request: { url: string; found: LandingFound }) => RenderedPage;
type HomeRenderer = () => RenderedPage;
type ShopRenderer = (request: { url: string; shirts: unknown }) => RenderedPage;
type ShirtRenderer = (request: { url: string; shirt: unknown; charities: unknown }) => RenderedPage;

interface ServerPagesModule {
  createLandingRenderer(distDir: string): LandingRenderer;
  createHomeRenderer(distDir: string): HomeRenderer;
  createShopRenderer(distDir: string): ShopRenderer;
  createShirtRenderer(distDir: string): ShirtRenderer;
}

/**
 * Renders the landing, the homepage, the shop or a shirt's page for a request, or says it cannot
 * (false) when the server module is not built: the caller then serves the client's index.html,
 * whose router shows the same page. The module is imported once, on the first page asked for.
 */
export function serverPages({
  distDir,
  serverBundle = serverPagesBundle,
  settings,
}: {
  distDir: string;
  serverBundle?: string;
  /** What the pages tell their client (see withClientSettings). */
  settings: ClientSettings;
}) {
  let renderers:
    Promise<{ landing: LandingRenderer; home: HomeRenderer; shop: ShopRenderer; shirt: ShirtRenderer }> | undefined;
  const load = () => {
    if (!existsSync(serverBundle)) return undefined;
    renderers ??= (import(pathToFileURL(serverBundle).href) as Promise<ServerPagesModule>).then((module) => ({
      landing: module.createLandingRenderer(distDir),
      home: module.createHomeRenderer(distDir),
      shop: module.createShopRenderer(distDir),
      shirt: module.createShirtRenderer(distDir),
    }));
    return renderers;
  };
  const send = (res: Response, { status, html }: RenderedPage) => {
    // Revalidated on every visit: the landing carries figures that move, and a new build's pages
    // name new files.
    res.status(status).setHeader('Cache-Control', 'no-cache').type('html').send(withClientSettings(html, settings));
    return true;
  };
  return {
    sendLanding: async (res: Response, url: string, found: LandingFound): Promise<boolean> => {
      const render = await load();
      return render ? send(res, render.landing({ url, found })) : false;
    },
    sendHome: async (res: Response): Promise<boolean> => {
      const render = await load();
      return render ? send(res, render.home()) : false;
    },
    sendShop: async (res: Response, url: string, shirts: unknown): Promise<boolean> => {
      const render = await load();
      return render ? send(res, render.shop({ url, shirts })) : false;
    },
    sendShirt: async (
      res: Response,
      request: { url: string; shirt: unknown; charities: unknown },
    ): Promise<boolean> => {
      const render = await load();
      return render ? send(res, render.shirt(request)) : false;
    },
  };
}

/** What the server-rendered pages show, each read as the API answers it to an anonymous visitor. */
export interface PageReads {
  /** The landing's fundraiser and charity; null for an unknown fundraiser. */
  landing(fundraiserId: string): Promise<LandingFound>;
  /** The shop's catalogue, as GET /api/shirts. */
  shirts(): Promise<unknown>;
  /** A shirt, as GET /api/shirt/{id}; null when there is none. */
  shirt(shirtId: string): Promise<unknown>;
  /** The charities a shirt's waitlist form offers, as GET /api/charities. */
  charities(): Promise<unknown>;
}

/**
 * The pages' reads, through the use cases and queries the API's routes call: GET
 * /api/fundraisers/{id} and GET /api/charity/{id} for the landing, the catalogue's for the others.
 */
export function pageReads({
  useCases: { fundraisers, charities },
  catalog,
}: {
  useCases: { fundraisers: Pick<FundraiserUseCases, 'details'>; charities: Pick<CharityUseCases, 'get'> };
  catalog: Pick<CatalogQueries, 'listShirts' | 'getShirt' | 'listCharities'>;
}): PageReads {
  return {
    async landing(fundraiserId) {
      let fundraiser;
      try {
        // As a stranger sees it: the page is the same for everyone, its owner's island asks for itself.
        fundraiser = await fundraisers.details(fundraiserId, undefined);
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'not_found') return null;
        throw error;
      }
      return { fundraiser, charity: await charities.get(fundraiser.charityId, undefined) };
    },
    shirts: () => catalog.listShirts(),
    shirt: async (shirtId) => (await catalog.getShirt(shirtId)) ?? null,
    charities: () => catalog.listCharities(),
  };
}
