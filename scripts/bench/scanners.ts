import type autocannon from 'autocannon';

/**
 * How many scanners a benchmark's scans come from (X-Forwarded-For, which the gateway believes
 * from loopback): one address may send 600 scans a minute.
 */
const SCANNERS = 2_048;
/** Coprime with SCANNERS, so up to SCANNERS connections each start at an address of their own. */
const STRIDE = 1_265;

/**
 * The scans of a load, as autocannon options: POSTs with a tiny JSON body to `pathOf(n)` from
 * scanner n, each request encoded once (one rebuilt per call costs the load generator CPU the
 * servers share). Each connection walks the list from its own place: autocannon's connections
 * walk one list in step, so they all sent from its first few hundred addresses at once, which at
 * 200 connections passed those addresses' allowance (4 in 10 scans answered 429).
 */
export function scanLoad(pathOf: (scanner: number) => string): Pick<autocannon.Options, 'requests' | 'setupClient'> {
  const requests: autocannon.Request[] = Array.from({ length: SCANNERS }, (_, n) => ({
    method: 'POST',
    path: pathOf(n),
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.${n >> 8}.${n & 255}` },
    body: '{}',
  }));
  let connections = 0;
  return {
    requests,
    setupClient(client) {
      const start = (connections++ * STRIDE) % SCANNERS;
      client.setRequests([...requests.slice(start), ...requests.slice(0, start)]);
    },
  };
}
