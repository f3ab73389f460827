import type Database from 'better-sqlite3';
import {
  type CredentialsStore,
  type IdentityProvider,
  MAX_SESSION_MS,
  type OneTimeCode,
  type PhoneVerification,
  REFRESH_REUSE_GRACE_MS,
  type RefreshSession,
} from '@qrshirt/core';
import { openSqliteFile } from './sqlite-database';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS passwords (
    uid  TEXT PRIMARY KEY,
    hash TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS refresh_families (
    family     TEXT PRIMARY KEY,
    uid        TEXT    NOT NULL,
    anonymous  INTEGER NOT NULL,
    token_hash TEXT    NOT NULL,
    expires_at INTEGER NOT NULL,
    ends_at    INTEGER,
    previous_hash TEXT,
    rotated_at INTEGER
  );
  CREATE INDEX IF NOT EXISTS refresh_families_uid ON refresh_families (uid);
  CREATE INDEX IF NOT EXISTS refresh_families_expiry ON refresh_families (expires_at);
  CREATE TABLE IF NOT EXISTS sessions_valid_after (
    uid TEXT PRIMARY KEY,
    at  INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS one_time_codes (
    purpose    TEXT    NOT NULL,
    code_hash  TEXT    NOT NULL,
    uid        TEXT    NOT NULL,
    expires_at INTEGER NOT NULL,
    address_hash TEXT,
    PRIMARY KEY (purpose, code_hash)
  );
  CREATE INDEX IF NOT EXISTS one_time_codes_expiry ON one_time_codes (expires_at);
  CREATE INDEX IF NOT EXISTS one_time_codes_uid ON one_time_codes (uid);
  CREATE TABLE IF NOT EXISTS phone_verifications (
    id         TEXT PRIMARY KEY,
    phone_key  TEXT    NOT NULL,
    code_hash  TEXT    NOT NULL,
    expires_at INTEGER NOT NULL,
    tries      INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS phone_verifications_expiry ON phone_verifications (expires_at);
  CREATE TABLE IF NOT EXISTS identities (
    provider TEXT NOT NULL,
    subject  TEXT NOT NULL,
    uid      TEXT NOT NULL,
    PRIMARY KEY (provider, subject)
  );
  CREATE INDEX IF NOT EXISTS identities_uid ON identities (uid);
  CREATE TABLE IF NOT EXISTS scan_salts (
    day  TEXT PRIMARY KEY,
    salt TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS personal_data_keys (
    subject TEXT PRIMARY KEY,
    key     BLOB
  );
  CREATE TABLE IF NOT EXISTS spent_challenges (
    id         TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS spent_challenges_expiry ON spent_challenges (expires_at);`;

interface FamilyRow {
  uid: string;
  anonymous: number;
  token_hash: string;
  expires_at: number;
  ends_at: number | null;
  previous_hash: string | null;
  rotated_at: number | null;
}

/**
 * Files made before a column existed get it: refresh families before sessions had an end (they get
 * one at their next rotation), one-time codes before links were bound to their address (their
 * codes read as unbound, which bound links' checks refuse).
 */
function addColumn(db: Database.Database, table: string, column: string, type: string): void {
  const columns = db.prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)').all(table);
  if (!columns.some(({ name }) => name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
}

interface VerificationRow {
  id: string;
  phone_key: string;
  code_hash: string;
  expires_at: number;
  tries: number;
}

/**
 * The credentials in their own SQLite file beside the event store (secrets stay out of the
 * event log and its backups). WAL and the busy timeout let several gateway processes share it;
 * every read-modify-write is one statement or one IMMEDIATE transaction, so it is atomic across
 * them. Expired rows are swept when new ones of their kind are written.
 */
export function createSqliteCredentialsStore({ path }: { path: string }): CredentialsStore {
  // A password change or a revoked session that a power cut undid would be a security bug: FULL.
  const db = openSqliteFile(path, {
    synchronous: 'FULL',
    setUp(opened) {
      // A destroyed personal-data key must not linger in a free page of the file.
      opened.pragma('secure_delete = ON');
      opened.exec(SCHEMA);
      addColumn(opened, 'refresh_families', 'ends_at', 'INTEGER');
      addColumn(opened, 'refresh_families', 'previous_hash', 'TEXT');
      addColumn(opened, 'refresh_families', 'rotated_at', 'INTEGER');
      addColumn(opened, 'one_time_codes', 'address_hash', 'TEXT');
    },
  });

  const statements = {
    setPassword: db.prepare(
      'INSERT INTO passwords (uid, hash) VALUES (?, ?) ON CONFLICT (uid) DO UPDATE SET hash = excluded.hash',
    ),
    getPassword: db.prepare<[string], { hash: string }>('SELECT hash FROM passwords WHERE uid = ?'),
    deletePassword: db.prepare('DELETE FROM passwords WHERE uid = ?'),
    sweepFamilies: db.prepare('DELETE FROM refresh_families WHERE expires_at <= ?'),
    insertFamily: db.prepare(
      'INSERT INTO refresh_families (family, uid, anonymous, token_hash, expires_at, ends_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    getFamily: db.prepare<[string], FamilyRow>(
      'SELECT uid, anonymous, token_hash, expires_at, ends_at, previous_hash, rotated_at FROM refresh_families WHERE family = ?',
    ),
    rotateFamily: db.prepare(
      'UPDATE refresh_families SET token_hash = ?, expires_at = ?, ends_at = ?, previous_hash = ?, rotated_at = ? WHERE family = ?',
    ),
    deleteFamily: db.prepare('DELETE FROM refresh_families WHERE family = ?'),
    deleteFamiliesOf: db.prepare('DELETE FROM refresh_families WHERE uid = ?'),
    setValidAfter: db.prepare(
      'INSERT INTO sessions_valid_after (uid, at) VALUES (?, ?) ON CONFLICT (uid) DO UPDATE SET at = MAX(at, excluded.at)',
    ),
    getValidAfter: db.prepare<[string], { at: number }>('SELECT at FROM sessions_valid_after WHERE uid = ?'),
    sweepCodes: db.prepare('DELETE FROM one_time_codes WHERE expires_at <= ?'),
    insertCode: db.prepare(
      'INSERT INTO one_time_codes (purpose, code_hash, uid, expires_at, address_hash) VALUES (?, ?, ?, ?, ?)',
    ),
    takeCode: db.prepare<[string, string], CodeRow>(
      'DELETE FROM one_time_codes WHERE purpose = ? AND code_hash = ? RETURNING uid, expires_at, address_hash',
    ),
    findCode: db.prepare<[string, string], CodeRow>(
      'SELECT uid, expires_at, address_hash FROM one_time_codes WHERE purpose = ? AND code_hash = ?',
    ),
    deleteCodesOf: db.prepare('DELETE FROM one_time_codes WHERE uid = ?'),
    sweepVerifications: db.prepare('DELETE FROM phone_verifications WHERE expires_at <= ?'),
    insertVerification: db.prepare(
      'INSERT INTO phone_verifications (id, phone_key, code_hash, expires_at, tries) VALUES (?, ?, ?, ?, ?)',
    ),
    tryVerification: db.prepare<[string, number], VerificationRow>(
      'UPDATE phone_verifications SET tries = tries + 1 WHERE id = ? AND tries < ? RETURNING *',
    ),
    deleteVerification: db.prepare('DELETE FROM phone_verifications WHERE id = ?'),
    linkIdentity: db.prepare('INSERT INTO identities (provider, subject, uid) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
    deleteIdentitiesOf: db.prepare('DELETE FROM identities WHERE uid = ?'),
    identitiesOf: db.prepare<[string], { provider: IdentityProvider; subject: string }>(
      'SELECT provider, subject FROM identities WHERE uid = ?',
    ),
    findIdentity: db.prepare<[string, string], { uid: string }>(
      'SELECT uid FROM identities WHERE provider = ? AND subject = ?',
    ),
    phoneSubjects: db.prepare<[], { subject: string; uid: string }>(
      "SELECT subject, uid FROM identities WHERE provider = 'phone'",
    ),
    renamePhoneSubject: db.prepare("UPDATE identities SET subject = ? WHERE provider = 'phone' AND subject = ?"),
    deletePhoneSubject: db.prepare("DELETE FROM identities WHERE provider = 'phone' AND subject = ?"),
    verificationKeys: db.prepare<[], { id: string; phone_key: string }>(
      'SELECT id, phone_key FROM phone_verifications',
    ),
    renameVerificationKey: db.prepare('UPDATE phone_verifications SET phone_key = ? WHERE id = ?'),
    insertSalt: db.prepare('INSERT INTO scan_salts (day, salt) VALUES (?, ?) ON CONFLICT DO NOTHING'),
    getSalt: db.prepare<[string], { salt: string }>('SELECT salt FROM scan_salts WHERE day = ?'),
    deletePastSalts: db.prepare('DELETE FROM scan_salts WHERE day < (SELECT MAX(day) FROM scan_salts)'),
    sweepChallenges: db.prepare('DELETE FROM spent_challenges WHERE expires_at <= ?'),
    // A row still there but expired (not swept yet) is spent anew, as if it had been cleared.
    spendChallenge: db.prepare(
      `INSERT INTO spent_challenges (id, expires_at) VALUES (?, ?)
       ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at WHERE expires_at <= ?`,
    ),
    insertKey: db.prepare('INSERT INTO personal_data_keys (subject, key) VALUES (?, ?) ON CONFLICT DO NOTHING'),
    getKey: db.prepare<[string], { key: Buffer | null }>('SELECT key FROM personal_data_keys WHERE subject = ?'),
    eraseKey: db.prepare(
      `INSERT INTO personal_data_keys (subject, key) VALUES (?, NULL)
       ON CONFLICT (subject) DO UPDATE SET key = NULL WHERE key IS NOT NULL`,
    ),
  };

  const rotate = db.transaction(
    (family: string, tokenHash: string, next: { tokenHash: string; expiresAt: number }, now: number) => {
      const row = statements.getFamily.get(family);
      if (!row || row.expires_at <= now) return { outcome: 'invalid' as const };
      const current = row.token_hash === tokenHash;
      const replacedLately =
        row.previous_hash === tokenHash && row.rotated_at !== null && now - row.rotated_at <= REFRESH_REUSE_GRACE_MS;
      if (!current && !replacedLately) {
        statements.deleteFamily.run(family);
        return { outcome: 'reused' as const };
      }
      const endsAt = row.ends_at ?? now + MAX_SESSION_MS;
      const expiresAt = Math.min(next.expiresAt, endsAt);
      const [previous, rotatedAt] = current ? [tokenHash, now] : [row.previous_hash, row.rotated_at];
      statements.rotateFamily.run(next.tokenHash, expiresAt, endsAt, previous, rotatedAt, family);
      const session: RefreshSession = { uid: row.uid, anonymous: row.anonymous === 1, expiresAt };
      return { outcome: 'rotated' as const, session };
    },
  );

  // All or nothing: a renaming cut short is done again from the start.
  const renamePhoneSubjects = db.transaction((rename: (subject: string) => string | null): number => {
    let renamed = 0;
    for (const { subject, uid } of statements.phoneSubjects.all()) {
      const to = rename(subject);
      if (to === null) continue;
      const holder = statements.findIdentity.get('phone', to)?.uid;
      if (holder !== undefined && holder !== uid) throw new Error(`phone identity ${to} is another user's already`);
      if (holder === uid) statements.deletePhoneSubject.run(subject);
      else statements.renamePhoneSubject.run(to, subject);
      renamed++;
    }
    for (const { id, phone_key: phoneKey } of statements.verificationKeys.all()) {
      const to = rename(phoneKey);
      if (to === null) continue;
      statements.renameVerificationKey.run(to, id);
      renamed++;
    }
    return renamed;
  });

  // Both or neither: a crash in between would leave the access tokens alive with their sessions gone.
  const endSessions = db.transaction((uid: string, at: number) => {
    statements.deleteFamiliesOf.run(uid);
    statements.setValidAfter.run(uid, at);
  });

  const link = db.transaction((provider: string, subject: string, uid: string) => {
    statements.linkIdentity.run(provider, subject, uid);
    return statements.findIdentity.get(provider, subject)!.uid;
  });

  const dailySalt = db.transaction((day: string, candidate: string) => {
    statements.insertSalt.run(day, candidate);
    const { salt } = statements.getSalt.get(day)!;
    statements.deletePastSalts.run();
    return salt;
  });

  const personalDataKey = db.transaction((subject: string, candidate: Buffer) => {
    statements.insertKey.run(subject, candidate);
    return statements.getKey.get(subject)!.key;
  });
  const personalDataKeys = db.transaction((subjects: readonly string[]) => {
    const found = new Map<string, Buffer>();
    for (const subject of subjects) {
      const key = statements.getKey.get(subject)?.key;
      if (key) found.set(subject, key);
    }
    return found;
  });

  return {
    async setPasswordHash(uid, hash) {
      statements.setPassword.run(uid, hash);
    },
    async passwordHash(uid) {
      return statements.getPassword.get(uid)?.hash ?? null;
    },
    async deletePasswordHash(uid) {
      statements.deletePassword.run(uid);
    },
    async createRefreshFamily(family, session, now) {
      db.transaction(() => {
        statements.sweepFamilies.run(now);
        const { uid, anonymous, tokenHash, expiresAt, endsAt } = session;
        statements.insertFamily.run(family, uid, anonymous ? 1 : 0, tokenHash, Math.min(expiresAt, endsAt), endsAt);
      }).immediate();
    },
    async rotateRefreshToken(family, tokenHash, next, now) {
      // IMMEDIATE takes the write lock before reading, so no other process rotates in between.
      return rotate.immediate(family, tokenHash, next, now);
    },
    async deleteRefreshFamily(family) {
      statements.deleteFamily.run(family);
    },
    async endSessionsOf(uid, at) {
      endSessions.immediate(uid, at);
    },
    async sessionsValidAfter(uid) {
      return statements.getValidAfter.get(uid)?.at ?? null;
    },
    async addOneTimeCode(purpose, codeHash, { uid, expiresAt, addressHash }, now) {
      db.transaction(() => {
        statements.sweepCodes.run(now);
        statements.insertCode.run(purpose, codeHash, uid, expiresAt, addressHash ?? null);
      }).immediate();
    },
    async takeOneTimeCode(purpose, codeHash, now) {
      return unexpired(statements.takeCode.get(purpose, codeHash), now);
    },
    async findOneTimeCode(purpose, codeHash, now) {
      return unexpired(statements.findCode.get(purpose, codeHash), now);
    },
    async deleteOneTimeCodesOf(uid) {
      statements.deleteCodesOf.run(uid);
    },
    async addPhoneVerification(verification, now) {
      db.transaction(() => {
        statements.sweepVerifications.run(now);
        const { id, phoneKey, codeHash, expiresAt, tries } = verification;
        statements.insertVerification.run(id, phoneKey, codeHash, expiresAt, tries);
      }).immediate();
    },
    async tryPhoneVerification(id, maxTries) {
      const row = statements.tryVerification.get(id, maxTries);
      return row ? toVerification(row) : null;
    },
    async deletePhoneVerification(id) {
      return statements.deleteVerification.run(id).changes === 1;
    },
    async linkIdentity(provider, subject, uid) {
      return link.immediate(provider, subject, uid);
    },
    async findIdentity(provider, subject) {
      return statements.findIdentity.get(provider, subject)?.uid ?? null;
    },
    async identitiesOf(uid) {
      return statements.identitiesOf.all(uid);
    },
    async deleteIdentitiesOf(uid) {
      statements.deleteIdentitiesOf.run(uid);
    },
    async renamePhoneSubjects(rename) {
      const renamed = renamePhoneSubjects.immediate(rename);
      // As for an erased key: the old subjects leave the WAL's copies of the pages too.
      if (renamed > 0) db.pragma('wal_checkpoint(TRUNCATE)');
      return renamed;
    },
    async dailySalt(day, candidate) {
      // Every gateway on this file gets the first one stored; with FULL sync, a deleted salt is gone for good.
      return dailySalt.immediate(day, candidate);
    },
    async spendChallenge(id, expiresAt, now) {
      return db
        .transaction(() => {
          statements.sweepChallenges.run(now);
          return statements.spendChallenge.run(id, expiresAt, now).changes === 1;
        })
        .immediate();
    },
    async personalDataKey(subject, candidate) {
      return personalDataKey.immediate(subject, candidate);
    },
    async personalDataKeys(subjects) {
      return personalDataKeys(subjects);
    },
    async erasePersonalDataKey(subject) {
      const erased = statements.eraseKey.run(subject).changes > 0;
      // secure_delete zeroes the page in the database file; the WAL still holds the page as it
      // was until a checkpoint copies it back and the log is truncated.
      if (erased) db.pragma('wal_checkpoint(TRUNCATE)');
      return erased;
    },
    async close() {
      db.close();
    },
  };
}

interface CodeRow {
  uid: string;
  expires_at: number;
  address_hash: string | null;
}

function unexpired(row: CodeRow | undefined, now: number): OneTimeCode | null {
  return row && row.expires_at > now ? { uid: row.uid, addressHash: row.address_hash } : null;
}

function toVerification(row: VerificationRow): PhoneVerification {
  return { id: row.id, phoneKey: row.phone_key, codeHash: row.code_hash, expiresAt: row.expires_at, tries: row.tries };
}
