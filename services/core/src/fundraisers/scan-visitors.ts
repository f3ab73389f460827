import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { ScanRequest } from '@qrshirt/contracts';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import { addressGroup } from '../kit/client-address';
import type { Clock } from '../kit/clock';
import type { DailySalts } from '../ports/daily-salts';
import { IngestionUnavailableError } from '../ports/ingestion';

export interface ScanVisitorsOptions {
  salts: DailySalts;
  clock: Clock;
  newSalt?: () => string;
}

/** What the gateway knows of a scan's visitor, and all of it that is ever stored. */
export type ScanVisitor = Pick<ScanRequest, 'visitorHash' | 'addressHash' | 'bot'>;

const DAY_MS = 24 * 60 * 60_000;
/** The longest a process waits before fetching the next day's salt itself (timers over ~24.8 days overflow). */
const MAX_TIMER_MS = DAY_MS;
/** User agents whose verdict is remembered: the phones of a crowd send a few hundred different ones. */
const KNOWN_AGENTS = 5_000;

/**
 * Who scanned, as far as counting needs it, the way Plausible counts visitors: a keyed hash of
 * the client's address, its user agent and the fundraiser, under a random salt of the day that
 * every gateway shares and that is deleted once the day is over. The same person on the same day
 * gets the same hash from any gateway; nobody, the operator included, can get the address back
 * or link a visitor across days once the salt is gone. Hashes are per fundraiser too, so one
 * visitor's scans of two shirts cannot be linked either.
 *
 * Per request: one HMAC, one SHA-256 and isbot's regular expression (once per user agent); the
 * salt is read from the store once a day per process (at the first scan, or at midnight by a
 * timer), never per scan.
 */
export function createScanVisitors({
  salts,
  clock,
  newSalt = () => randomBytes(32).toString('base64url'),
}: ScanVisitorsOptions) {
  let today: { start: number; end: number; key: Buffer } | undefined;
  let loading: { day: number; key: Promise<Buffer> } | undefined;
  let midnight: NodeJS.Timeout | undefined;
  let closed = false;
  // isbot's expression costs a few microseconds per user agent; a user agent alone identifies nobody.
  const verdicts = new LRUCache<string, boolean>({ max: KNOWN_AGENTS });
  function isRobot(userAgent: string): boolean {
    let verdict = verdicts.get(userAgent);
    if (verdict === undefined) {
      verdict = isbot(userAgent);
      verdicts.set(userAgent, verdict);
    }
    return verdict;
  }

  async function load(start: number): Promise<Buffer> {
    const day = new Date(start).toISOString().slice(0, 10);
    let salt: string;
    try {
      salt = await salts.dailySalt(day, newSalt(), clock().getTime());
    } catch (error) {
      // The scanner gets a 503 and retries; no hash is ever made without the shared salt.
      throw new IngestionUnavailableError('Scans cannot be stored right now, please retry shortly', { cause: error });
    }
    const key = Buffer.from(salt, 'base64url');
    if (!today || start >= today.start) {
      today = { start, end: start + DAY_MS, key };
      armMidnight();
    }
    return key;
  }

  /** Fetches the next day's salt at midnight, which deletes this day's even if nobody scans then. */
  function armMidnight(): void {
    clearTimeout(midnight);
    if (closed || !today) return;
    const wait = Math.min(Math.max(today.end - clock().getTime(), 1_000), MAX_TIMER_MS);
    midnight = setTimeout(() => {
      // A failure here is retried by the first scan of the day.
      void Promise.resolve(keyAt(clock().getTime())).catch(() => {});
    }, wait);
    midnight.unref();
  }

  function keyAt(time: number): Buffer | Promise<Buffer> {
    if (today && time >= today.start && time < today.end) return today.key;
    const start = time - (time % DAY_MS);
    // Requests that arrive while the salt is being fetched wait for the same fetch.
    if (loading?.day === start) return loading.key;
    const key = load(start);
    loading = { day: start, key };
    // Not kept on failure either: the next request asks the store again.
    const done = () => {
      if (loading?.key === key) loading = undefined;
    };
    key.then(done, done);
    return key;
  }

  return {
    /**
     * `at` is the scan's time: it picks the day, and so the salt. The address counts as its group
     * (`addressGroup`: an IPv6 address by its /64), the unit an IPv6 network gives one subscriber:
     * its addresses are one address here, as a household behind one IPv4 address is.
     */
    async identify(fundraiserId: string, address: string, userAgent: string, at: Date): Promise<ScanVisitor> {
      const found = keyAt(at.getTime());
      const key = found instanceof Buffer ? found : await found;
      const keyed = createHmac('sha256', key)
        .update(`${fundraiserId}\0${addressGroup(address)}`)
        .digest();
      // The address hash stores half of the keyed digest; the other half, never stored, keys the
      // visitor hash, so neither can be computed from the other and a user agent.
      const visitor = createHash('sha256').update(keyed).update(userAgent).digest();
      return {
        visitorHash: visitor.subarray(0, 16).toString('base64url'),
        addressHash: keyed.subarray(0, 16).toString('base64url'),
        bot: isRobot(userAgent),
      };
    },
    close(): void {
      closed = true;
      clearTimeout(midnight);
    },
  };
}
export type ScanVisitors = ReturnType<typeof createScanVisitors>;
