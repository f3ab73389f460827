import { Redis } from 'ioredis';
import {
  type CredentialsStore,
  type IdentityProvider,
  MAX_SESSION_MS,
  type OneTimeCode,
  type OneTimeCodePurpose,
  type PhoneVerification,
  REFRESH_REUSE_GRACE_MS,
  type RefreshRotation,
} from '@qrshirt/core';

/*
 * Each read-modify-write is one Lua script, so it is atomic across gateway processes. Expiry
 * times are the caller's (its clock decides); Redis TTLs only clear the keys away afterwards.
 */
const ROTATE = `
local row = redis.call('HMGET', KEYS[1], 'uid', 'anonymous', 'hash', 'expiresAt', 'endsAt', 'previous', 'rotatedAt')
local now = tonumber(ARGV[4])
if not row[1] or tonumber(row[4]) <= now then return {'invalid'} end
local current = row[3] == ARGV[1]
local replaced_lately = row[6] == ARGV[1] and row[7] and now - tonumber(row[7]) <= tonumber(ARGV[6])
if not current and not replaced_lately then
  redis.call('DEL', KEYS[1])
  return {'reused'}
end
local ends_at = tonumber(row[5]) or (now + tonumber(ARGV[5]))
local expires_at = math.min(tonumber(ARGV[3]), ends_at)
redis.call('HSET', KEYS[1], 'hash', ARGV[2], 'expiresAt', tostring(expires_at), 'endsAt', tostring(ends_at))
if current then redis.call('HSET', KEYS[1], 'previous', ARGV[1], 'rotatedAt', ARGV[4]) end
redis.call('PEXPIRE', KEYS[1], math.max(1, expires_at - tonumber(ARGV[4])))
return {'rotated', row[1], row[2], tostring(expires_at)}`;

/*
 * A code is listed under its user (KEYS[2]), which lives as long as the user's longest-lived code,
 * so that every code of the user can be found and removed at once.
 */
const ADD_CODE = `
redis.call('HSET', KEYS[1], 'uid', ARGV[1], 'expiresAt', ARGV[2])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'addressHash', ARGV[4]) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('SADD', KEYS[2], KEYS[1])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
return 0`;

/* ARGV[2] = 1 takes the code (and unlists it from its user, whose list is ARGV[3] .. uid). */
const READ_CODE = `
local row = redis.call('HMGET', KEYS[1], 'uid', 'expiresAt', 'addressHash')
if not row[1] then return false end
if ARGV[2] == '1' then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', ARGV[3] .. row[1], KEYS[1])
end
if tonumber(row[2]) <= tonumber(ARGV[1]) then return false end
return {row[1], row[3] or ''}`;

/* Only the codes still of this user: a listed key may have been used, or expired, since. */
const DELETE_CODES_OF = `
for _, code in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('HGET', code, 'uid') == ARGV[1] then redis.call('DEL', code) end
end
redis.call('DEL', KEYS[1])
return 0`;

const TRY_VERIFICATION = `
local row = redis.call('HMGET', KEYS[1], 'phoneKey', 'codeHash', 'expiresAt', 'tries')
if not row[1] or tonumber(row[4]) >= tonumber(ARGV[1]) then return false end
local tries = redis.call('HINCRBY', KEYS[1], 'tries', 1)
return {row[1], row[2], row[3], tostring(tries)}`;

/* Every family of the user goes, and the time its access tokens must be younger than only moves on. */
const END_SESSIONS_OF = `
for _, family in ipairs(redis.call('SMEMBERS', KEYS[1])) do redis.call('DEL', ARGV[1] .. family) end
redis.call('DEL', KEYS[1])
local at = tonumber(redis.call('GET', KEYS[2]))
if not at or at < tonumber(ARGV[2]) then redis.call('SET', KEYS[2], ARGV[2]) end
return 0`;

/* Only the identities still linked to this user: one may have been linked anew since. */
const DELETE_IDENTITIES_OF = `
for _, identity in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('GET', identity) == ARGV[1] then redis.call('DEL', identity) end
end
redis.call('DEL', KEYS[1])
return 0`;

/*
 * A phone identity (KEYS[1]) under its new subject (KEYS[2]), still listed under its user (whose
 * list is ARGV[1] .. uid). An error when the new subject is another user's.
 */
const RENAME_IDENTITY = `
local uid = redis.call('GET', KEYS[1])
if not uid then return 0 end
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= uid then return redis.error_reply("phone identity " .. KEYS[2] .. " is another user's already") end
redis.call('SET', KEYS[2], uid)
redis.call('DEL', KEYS[1])
redis.call('SREM', ARGV[1] .. uid, KEYS[1])
redis.call('SADD', ARGV[1] .. uid, KEYS[2])
return 1`;

/* A verification's number key (ARGV[1]) replaced by its new one (ARGV[2]), unless it went meanwhile. */
const RENAME_VERIFICATION_KEY = `
if redis.call('HGET', KEYS[1], 'phoneKey') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'phoneKey', ARGV[2])
return 1`;

/*
 * The salts of scan visitors' hashes, one hash field per UTC day: today's is set if missing, every
 * earlier day's deleted, and the key expires at the end of the newest day, so a salt is
 * forgotten after its day even when no gateway asks again.
 */
const DAILY_SALT = `
local salt = redis.call('HGET', KEYS[1], ARGV[1])
if not salt then
  salt = ARGV[2]
  redis.call('HSET', KEYS[1], ARGV[1], salt)
end
local newest = ARGV[1]
local days = redis.call('HKEYS', KEYS[1])
for _, day in ipairs(days) do if day > newest then newest = day end end
for _, day in ipairs(days) do if day < newest then redis.call('HDEL', KEYS[1], day) end end
if newest == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return salt`;

/*
 * Personal-data keys, one hash field per subject (base64). An erased subject keeps an empty field:
 * nothing is sealed for it again. HSET of that field replaces the key in memory; what the server's
 * own snapshots and append-only file kept of it is the Redis operator's to expire (see docs/operations.md).
 */
const PERSONAL_DATA_KEY = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then return ARGV[2] end
return redis.call('HGET', KEYS[1], ARGV[1])`;

const ERASE_PERSONAL_DATA_KEY = `
if redis.call('HGET', KEYS[1], ARGV[1]) == '' then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], '')
return 1`;

/* A spent challenge: its key holds its expiry, and Redis's TTL clears it away afterwards. */
const SPEND_CHALLENGE = `
local expires_at = redis.call('GET', KEYS[1])
if expires_at and tonumber(expires_at) > tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1`;

const DAY_MS = 24 * 60 * 60_000;

export interface RedisCredentialsStoreOptions {
  url: string;
  /** Default 'qr:cred'. */
  keyPrefix?: string;
}

/**
 * Credentials in Redis, for gateways on several hosts. Keys: `<prefix>:pw:<uid>`,
 * `:rf:<family>` (a hash) with `:rf-user:<uid>` (the user's families), `:valid-after:<uid>`,
 * `:otc:<purpose>:<hash>` with `:otc-of:<uid>` (the user's codes), `:pv:<id>`,
 * `:id:<provider>:<subject>`, `:scan-salts` and `:spent-challenge:<id>`. Redis must persist (AOF):
 * losing these keys signs everyone out and forgets passwords.
 */
export function createRedisCredentialsStore({
  url,
  keyPrefix = 'qr:cred',
}: RedisCredentialsStoreOptions): CredentialsStore {
  const redis = new Redis(url);
  // Connection errors reach each command's caller; without a listener ioredis would also print
  // every reconnection attempt to stderr.
  redis.on('error', () => {});
  const key = (...parts: string[]) => [keyPrefix, ...parts].join(':');
  const ttl = (expiresAt: number, now: number) => String(Math.max(1, expiresAt - now));
  async function readCode(
    purpose: OneTimeCodePurpose,
    codeHash: string,
    now: number,
    take: boolean,
  ): Promise<OneTimeCode | null> {
    const reply = (await redis.eval(
      READ_CODE,
      1,
      key('otc', purpose, codeHash),
      String(now),
      take ? '1' : '0',
      key('otc-of', ''),
    )) as [string, string] | null;
    return reply && { uid: reply[0], addressHash: reply[1] || null };
  }

  return {
    async setPasswordHash(uid, hash) {
      await redis.set(key('pw', uid), hash);
    },
    async passwordHash(uid) {
      return redis.get(key('pw', uid));
    },
    async deletePasswordHash(uid) {
      await redis.del(key('pw', uid));
    },
    async createRefreshFamily(family, session, now) {
      const familyKey = key('rf', family);
      const userKey = key('rf-user', session.uid);
      await redis
        .multi()
        .hset(familyKey, {
          uid: session.uid,
          anonymous: session.anonymous ? '1' : '0',
          hash: session.tokenHash,
          expiresAt: String(Math.min(session.expiresAt, session.endsAt)),
          endsAt: String(session.endsAt),
        })
        .pexpire(familyKey, ttl(Math.min(session.expiresAt, session.endsAt), now))
        .sadd(userKey, family)
        .exec();
    },
    async rotateRefreshToken(family, tokenHash, next, now): Promise<RefreshRotation> {
      const reply = (await redis.eval(
        ROTATE,
        1,
        key('rf', family),
        tokenHash,
        next.tokenHash,
        String(next.expiresAt),
        String(now),
        String(MAX_SESSION_MS),
        String(REFRESH_REUSE_GRACE_MS),
      )) as string[];
      if (reply[0] === 'rotated') {
        return {
          outcome: 'rotated',
          session: { uid: reply[1]!, anonymous: reply[2] === '1', expiresAt: Number(reply[3]) },
        };
      }
      return { outcome: reply[0] === 'reused' ? 'reused' : 'invalid' };
    },
    async deleteRefreshFamily(family) {
      await redis.del(key('rf', family));
    },
    async endSessionsOf(uid, at) {
      await redis.eval(END_SESSIONS_OF, 2, key('rf-user', uid), key('valid-after', uid), key('rf', ''), String(at));
    },
    async sessionsValidAfter(uid) {
      const at = await redis.get(key('valid-after', uid));
      return at === null ? null : Number(at);
    },
    async addOneTimeCode(purpose, codeHash, { uid, expiresAt, addressHash }, now) {
      await redis.eval(
        ADD_CODE,
        2,
        key('otc', purpose, codeHash),
        key('otc-of', uid),
        uid,
        String(expiresAt),
        ttl(expiresAt, now),
        addressHash ?? '',
      );
    },
    takeOneTimeCode: (purpose, codeHash, now) => readCode(purpose, codeHash, now, true),
    findOneTimeCode: (purpose, codeHash, now) => readCode(purpose, codeHash, now, false),
    async deleteOneTimeCodesOf(uid) {
      await redis.eval(DELETE_CODES_OF, 1, key('otc-of', uid), uid);
    },
    async addPhoneVerification(verification, now) {
      const verificationKey = key('pv', verification.id);
      await redis
        .multi()
        .hset(verificationKey, {
          phoneKey: verification.phoneKey,
          codeHash: verification.codeHash,
          expiresAt: String(verification.expiresAt),
          tries: String(verification.tries),
        })
        .pexpire(verificationKey, ttl(verification.expiresAt, now))
        .exec();
    },
    async tryPhoneVerification(id, maxTries): Promise<PhoneVerification | null> {
      const reply = (await redis.eval(TRY_VERIFICATION, 1, key('pv', id), String(maxTries))) as string[] | null;
      if (!reply) return null;
      const [phoneKey, codeHash, expiresAt, tries] = reply;
      return { id, phoneKey: phoneKey!, codeHash: codeHash!, expiresAt: Number(expiresAt), tries: Number(tries) };
    },
    async deletePhoneVerification(id) {
      return (await redis.del(key('pv', id))) === 1;
    },
    async linkIdentity(provider, subject, uid) {
      const identityKey = key('id', provider, subject);
      await redis.set(identityKey, uid, 'NX');
      const holder = (await redis.get(identityKey))!;
      // Listed under its user, so that closing the account finds every identity to unlink.
      await redis.sadd(key('ids-of', holder), identityKey);
      return holder;
    },
    async findIdentity(provider, subject) {
      return redis.get(key('id', provider, subject));
    },
    async identitiesOf(uid) {
      const listed = await redis.smembers(key('ids-of', uid));
      if (listed.length === 0) return [];
      const holders = await redis.mget(...listed);
      const prefix = key('id', '');
      // Only those still linked to this user: one may have been unlinked and linked anew since.
      return listed.flatMap((identityKey, i) => {
        if (holders[i] !== uid) return [];
        const [provider, ...subject] = identityKey.slice(prefix.length).split(':');
        return [{ provider: provider as IdentityProvider, subject: subject.join(':') }];
      });
    },
    async deleteIdentitiesOf(uid) {
      await redis.eval(DELETE_IDENTITIES_OF, 1, key('ids-of', uid), uid);
    },
    async renamePhoneSubjects(rename) {
      let renamed = 0;
      const identities = key('id', 'phone', '');
      for await (const found of redis.scanStream({ match: `${identities}*`, count: 500 })) {
        for (const identityKey of found as string[]) {
          const to = rename(identityKey.slice(identities.length));
          if (to === null) continue;
          renamed += (await redis.eval(
            RENAME_IDENTITY,
            2,
            identityKey,
            key('id', 'phone', to),
            key('ids-of', ''),
          )) as number;
        }
      }
      const verifications = key('pv', '');
      for await (const found of redis.scanStream({ match: `${verifications}*`, count: 500 })) {
        for (const verificationKey of found as string[]) {
          const phoneKey = await redis.hget(verificationKey, 'phoneKey');
          const to = phoneKey === null ? null : rename(phoneKey);
          if (to === null) continue;
          renamed += (await redis.eval(RENAME_VERIFICATION_KEY, 1, verificationKey, phoneKey!, to)) as number;
        }
      }
      return renamed;
    },
    async dailySalt(day, candidate, now) {
      const endOfDay = Date.parse(`${day}T00:00:00.000Z`) + DAY_MS;
      return (await redis.eval(DAILY_SALT, 1, key('scan-salts'), day, candidate, ttl(endOfDay, now))) as string;
    },
    async spendChallenge(id, expiresAt, now) {
      const spent = await redis.eval(
        SPEND_CHALLENGE,
        1,
        key('spent-challenge', id),
        String(expiresAt),
        String(now),
        ttl(expiresAt, now),
      );
      return spent === 1;
    },
    async personalDataKey(subject, candidate) {
      const stored = (await redis.eval(
        PERSONAL_DATA_KEY,
        1,
        key('personal-data-keys'),
        subject,
        candidate.toString('base64'),
      )) as string;
      return stored === '' ? null : Buffer.from(stored, 'base64');
    },
    async personalDataKeys(subjects) {
      const found = new Map<string, Buffer>();
      if (subjects.length === 0) return found;
      const stored = await redis.hmget(key('personal-data-keys'), ...subjects);
      subjects.forEach((subject, i) => {
        if (stored[i]) found.set(subject, Buffer.from(stored[i], 'base64'));
      });
      return found;
    },
    async erasePersonalDataKey(subject) {
      return (await redis.eval(ERASE_PERSONAL_DATA_KEY, 1, key('personal-data-keys'), subject)) === 1;
    },
    async close() {
      await redis.quit();
    },
  };
}
