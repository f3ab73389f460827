import type { z } from 'zod';

/** Spec section 9: one product-specific prefix keeps our entries apart from anything else stored. */
export const CACHE_PREFIX = 'qrshirt_cache_';

const MINUTE = 60_000;
export const cacheTtl = {
  default: 5 * MINUTE,
  shirts: 10 * MINUTE,
  shirt: 15 * MINUTE,
  charities: 30 * MINUTE,
  charity: 60 * MINUTE,
} as const;

export const cacheKeys = {
  shirts: 'shirts_all',
  shirt: (id: string) => `shirt_${id}`,
  charities: 'charities_all',
  charity: (id: string) => `charity_${id}`,
} as const;

/** What is stored under each key (spec section 3, cached wrapper). */
interface CachedEntry<T = unknown> {
  data: T;
  timestamp: number;
  ttl: number;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function readEntry(key: string): CachedEntry | null {
  const raw = storage()?.getItem(CACHE_PREFIX + key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as CachedEntry;
  } catch {
    return null;
  }
}

function isExpired(entry: CachedEntry, now = Date.now()): boolean {
  return now - entry.timestamp > entry.ttl;
}

/** A fresh entry checked against its schema; expired or malformed entries are dropped. */
export function getCached<T>(key: string, schema: z.ZodType<T>): T | undefined {
  const entry = readEntry(key);
  if (!entry) return undefined;
  const parsed = schema.safeParse(entry.data);
  if (isExpired(entry) || !parsed.success) {
    removeCached(key);
    return undefined;
  }
  return parsed.data;
}

export function setCached<T>(key: string, data: T, ttl: number = cacheTtl.default): void {
  const entry: CachedEntry<T> = { data, timestamp: Date.now(), ttl };
  try {
    storage()?.setItem(CACHE_PREFIX + key, JSON.stringify(entry));
  } catch {
    // Storage full or disabled: the cache is an optimisation, the answer is still served.
  }
}

export function removeCached(key: string): void {
  storage()?.removeItem(CACHE_PREFIX + key);
}

/** The cached answer while it is fresh, else the fetched one (then cached). */
export async function cachedFetch<T>(
  key: string,
  ttl: number,
  schema: z.ZodType<T>,
  fetcher: () => Promise<T>,
): Promise<T> {
  const hit = getCached(key, schema);
  if (hit !== undefined) return hit;
  const data = await fetcher();
  setCached(key, data, ttl);
  return data;
}

export function cacheEntryKeys(): string[] {
  const store = storage();
  if (!store) return [];
  const keys: string[] = [];
  for (let index = 0; index < store.length; index += 1) {
    const key = store.key(index);
    if (key?.startsWith(CACHE_PREFIX)) keys.push(key.slice(CACHE_PREFIX.length));
  }
  return keys.sort();
}

/** Spec section 9: creating a charity clears the charity list and every single-charity entry. */
export function clearCharityCaches(): void {
  for (const key of cacheEntryKeys()) {
    if (key === cacheKeys.charities || key.startsWith('charity_')) removeCached(key);
  }
}

interface CacheStatusRow {
  key: string;
  ageMs: number;
  ttlMs: number;
  expired: boolean;
  bytes: number;
}

/** What the hidden cache status panel lists. */
export function cacheStatus(now = Date.now()): CacheStatusRow[] {
  return cacheEntryKeys().flatMap((key) => {
    const raw = storage()?.getItem(CACHE_PREFIX + key) ?? '';
    const entry = readEntry(key);
    if (!entry) return [];
    return [{ key, ageMs: now - entry.timestamp, ttlMs: entry.ttl, expired: isExpired(entry, now), bytes: raw.length }];
  });
}

export function clearCache(): void {
  for (const key of cacheEntryKeys()) removeCached(key);
}
