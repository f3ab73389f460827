import { charityList } from '@qrshirt/contracts';
import { describe, expect, it, vi } from 'vitest';
import { CACHE_PREFIX, cachedFetch, cacheKeys, cacheTtl, clearCharityCaches, getCached, setCached } from './cache';

const charities = [
  { id: 'ocean', name: 'Ocean Friends', mission: 'Cleaner seas.', website_url: 'https://ocean.example' },
];

describe('the local cache', () => {
  it('stores the data with its time and TTL under the product prefix', () => {
    setCached(cacheKeys.charities, charities, cacheTtl.charities);
    const stored = JSON.parse(localStorage.getItem(`${CACHE_PREFIX}charities_all`)!) as Record<string, unknown>;
    expect(stored).toMatchObject({ data: charities, ttl: 30 * 60_000 });
    expect(typeof stored.timestamp).toBe('number');
  });

  it('answers from the cache until the TTL runs out, then fetches again', async () => {
    vi.useFakeTimers();
    const fetcher = vi.fn().mockResolvedValue(charities);
    await cachedFetch(cacheKeys.charities, cacheTtl.charities, charityList, fetcher);
    vi.advanceTimersByTime(30 * 60_000 - 1);
    await cachedFetch(cacheKeys.charities, cacheTtl.charities, charityList, fetcher);
    expect(fetcher).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2);
    await cachedFetch(cacheKeys.charities, cacheTtl.charities, charityList, fetcher);
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('drops an entry that no longer matches the contract', () => {
    setCached(cacheKeys.charities, [{ id: 1 }]);
    expect(getCached(cacheKeys.charities, charityList)).toBeUndefined();
    expect(localStorage.getItem(`${CACHE_PREFIX}charities_all`)).toBeNull();
  });

  it('clears every charity entry, and only those, when a charity is created', () => {
    setCached(cacheKeys.charities, charities);
    setCached(cacheKeys.charity('ocean'), charities[0]);
    setCached(cacheKeys.shirts, []);
    localStorage.setItem('someone-else', 'kept');
    clearCharityCaches();
    expect(localStorage.getItem(`${CACHE_PREFIX}charities_all`)).toBeNull();
    expect(localStorage.getItem(`${CACHE_PREFIX}charity_ocean`)).toBeNull();
    expect(localStorage.getItem(`${CACHE_PREFIX}shirts_all`)).not.toBeNull();
    expect(localStorage.getItem('someone-else')).toBe('kept');
  });
});
