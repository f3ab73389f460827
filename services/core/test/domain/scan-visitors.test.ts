import { afterEach, describe, expect, it } from 'vitest';
import { createScanVisitors, type ScanVisitors } from '../../src/fundraisers/scan-visitors';
import type { DailySalts } from '../../src/ports/daily-salts';
import { IngestionUnavailableError } from '../../src/ports/ingestion';

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1';
const DAY_ONE = new Date('2026-03-01T10:00:00.000Z');
const DAY_TWO = new Date('2026-03-02T00:00:01.000Z');

/** The credentials store's salts, shared like the store: the first salt of a day wins. */
function sharedSalts(): DailySalts & { asked: string[] } {
  const salts = new Map<string, string>();
  const asked: string[] = [];
  return {
    asked,
    async dailySalt(day, candidate) {
      asked.push(day);
      if (!salts.has(day)) salts.set(day, candidate);
      for (const stored of salts.keys()) if (stored < day) salts.delete(stored);
      return salts.get(day)!;
    },
  };
}

const open: ScanVisitors[] = [];
afterEach(() => {
  for (const visitors of open.splice(0)) visitors.close();
});
function gateway(salts: DailySalts, now = DAY_ONE): ScanVisitors {
  const visitors = createScanVisitors({ salts, clock: () => now });
  open.push(visitors);
  return visitors;
}

describe("a scan's visitor", () => {
  it('is the same hash from every gateway sharing the salt, and another for another phone or fundraiser', async () => {
    const salts = sharedSalts();
    const [a, b] = [gateway(salts), gateway(salts)];
    const first = await a.identify('f-1', '203.0.113.9', PHONE, DAY_ONE);
    expect(await b.identify('f-1', '203.0.113.9', PHONE, DAY_ONE)).toEqual(first);
    const otherPhone = await b.identify('f-1', '203.0.113.9', `${PHONE} 2`, DAY_ONE);
    expect(otherPhone.visitorHash).not.toBe(first.visitorHash);
    expect(otherPhone.addressHash).toBe(first.addressHash);
    const otherShirt = await b.identify('f-2', '203.0.113.9', PHONE, DAY_ONE);
    expect(otherShirt.visitorHash).not.toBe(first.visitorHash);
    expect(otherShirt.addressHash).not.toBe(first.addressHash);
    expect(JSON.stringify(first)).not.toContain('203.0.113.9');
  });

  it('asks the store for the salt once a day, not once a scan, and hashes anew the next day', async () => {
    const salts = sharedSalts();
    const visitors = gateway(salts);
    const scans = await Promise.all(
      Array.from({ length: 20 }, () => visitors.identify('f-1', '203.0.113.9', PHONE, DAY_ONE)),
    );
    expect(salts.asked).toEqual(['2026-03-01']);
    const nextDay = await visitors.identify('f-1', '203.0.113.9', PHONE, DAY_TWO);
    expect(salts.asked).toEqual(['2026-03-01', '2026-03-02']);
    expect(nextDay.visitorHash).not.toBe(scans[0]!.visitorHash);
  });

  it('is a robot when isbot says so: link previewers and crawlers, not phones', async () => {
    const visitors = gateway(sharedSalts());
    const bot = async (userAgent: string) => (await visitors.identify('f-1', '198.51.100.1', userAgent, DAY_ONE)).bot;
    expect(await bot('Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)')).toBe(true);
    expect(await bot('facebookexternalhit/1.1')).toBe(true);
    expect(await bot('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')).toBe(true);
    expect(await bot(PHONE)).toBe(false);
    expect(await bot(PHONE)).toBe(false);
  });

  it('is refused (503, retried) while the salt cannot be read, and found once it can', async () => {
    let down = true;
    const salts = sharedSalts();
    const flaky: DailySalts = {
      dailySalt: (...args) => (down ? Promise.reject(new Error('redis down')) : salts.dailySalt(...args)),
    };
    const visitors = gateway(flaky);
    await expect(visitors.identify('f-1', '203.0.113.9', PHONE, DAY_ONE)).rejects.toBeInstanceOf(
      IngestionUnavailableError,
    );
    down = false;
    expect((await visitors.identify('f-1', '203.0.113.9', PHONE, DAY_ONE)).visitorHash).toEqual(expect.any(String));
  });
});

describe("a scan's address", () => {
  it('is its /64 for IPv6, so one subscriber is one address however many of theirs they use', async () => {
    const visitors = gateway(sharedSalts());
    const identify = (address: string) => visitors.identify('f-1', address, PHONE, DAY_ONE);
    const home = await identify('2001:db8:0:7:1111:2222:3333:4444');
    for (const sibling of ['2001:db8:0:7::1', '2001:DB8:0:7:ffff:ffff:ffff:ffff', '2001:0db8:0000:0007::9%eth0']) {
      expect(await identify(sibling), sibling).toEqual(home);
    }
    expect((await identify('2001:db8:0:8::1')).addressHash).not.toBe(home.addressHash);
    // An IPv4 client seen on a dual-stack socket is its IPv4 address.
    expect(await identify('::ffff:192.0.2.1')).toEqual(await identify('192.0.2.1'));
    expect((await identify('192.0.2.2')).addressHash).not.toBe((await identify('192.0.2.1')).addressHash);
  });
});
