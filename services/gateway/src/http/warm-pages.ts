import type { AddressInfo } from 'node:net';

/** A page or file the warm-up asked for, and what it answered. */
interface WarmedPage {
  path: string;
  status: number;
}

/** The files a page loads from the build: its scripts, styles and preloads. */
const ASSETS = /(?:src|href)="(\/assets\/[^"]+)"/g;

/** /readyz waits for the warm-up: a request that hangs gives it up rather than keep the gateway unready. */
const WARM_REQUEST_TIMEOUT_MS = 10_000;

/**
 * Asks the gateway's own HTTP server, over loopback, for each server-rendered page once, and for
 * the built files they load, as a first visitor would: the pages' module is imported, their
 * renderers and the reads behind them run (and are compiled) once, and the files are in the
 * operating system's cache, so that the first visit after a start is as fast as the next. What
 * it asks changes nothing anyone sees: GETs only, of a shirt that exists and a fundraiser that
 * does not (its landing's "not found" is the same renderer).
 */
export async function warmPages(address: AddressInfo, { shirtId }: { shirtId: string | undefined }) {
  const host = { '0.0.0.0': '127.0.0.1', '::': '::1' }[address.address] ?? address.address;
  const base = `http://${address.family === 'IPv6' ? `[${host}]` : host}:${address.port}`;
  const get = async (path: string, accept: string): Promise<{ warmed: WarmedPage; body: string }> => {
    const answer = await fetch(`${base}${path}`, {
      headers: { accept, 'accept-encoding': 'br, gzip', 'x-request-id': 'start-up-warm-up' },
      redirect: 'manual',
      signal: AbortSignal.timeout(WARM_REQUEST_TIMEOUT_MS),
    });
    return { warmed: { path, status: answer.status }, body: await answer.text() };
  };
  const pages = ['/', '/shop', ...(shirtId ? [`/shirt/${encodeURIComponent(shirtId)}`] : []), '/fundraiser/warm-up'];
  const warmed: WarmedPage[] = [];
  const assets = new Set<string>();
  for (const path of pages) {
    const { warmed: page, body } = await get(path, 'text/html');
    warmed.push(page);
    for (const [, asset] of body.matchAll(ASSETS)) assets.add(asset!);
  }
  for (const asset of assets) warmed.push((await get(asset, '*/*')).warmed);
  return warmed;
}
