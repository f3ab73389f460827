import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { personalDataFields, personalDataSubject } from '@qrshirt/contracts';
import {
  createCommandHandler,
  createPersonalData,
  emailReservationDecider,
  emailReservationStreamName,
  type LookupKeys,
  type PersonalDataKeys,
  readAllFiltered,
} from '@qrshirt/core';
import { createSqliteCredentialsStore, createSqliteEventStore, createSqliteOutboxStore } from '@qrshirt/sqlite';

const USER_SUBJECT = /^user-(.+)$/;

/** The keys a backup's key file holds: null for a subject erased before it was taken. */
function readKeys(file: string): Map<string, Buffer | null> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare<[], { subject: string; key: Buffer | null }>('SELECT subject, key FROM personal_data_keys');
    return new Map(rows.all().map(({ subject, key }) => [subject, key]));
  } finally {
    db.close();
  }
}

/** The backup's keys, to open what its log holds of the people erased since; nothing is written. */
function backedUpKeys(keys: Map<string, Buffer | null>): PersonalDataKeys {
  return {
    personalDataKeys: (subjects) =>
      Promise.resolve(
        new Map(subjects.flatMap((subject) => (keys.get(subject) ? [[subject, keys.get(subject)!]] : []))),
      ),
    personalDataKey: () => Promise.reject(new Error('a restore seals nothing')),
    erasePersonalDataKey: () => Promise.reject(new Error('a restore erases by leaving keys out')),
  };
}

/**
 * Each erased subject's addresses, as the log holds them sealed under keys the backup still has:
 * read before those keys are left out, since afterwards nothing could say where their mail went.
 */
async function addressesOf(eventsFile: string, keys: PersonalDataKeys, erased: ReadonlySet<string>) {
  const eventStore = createSqliteEventStore({ path: eventsFile });
  const personalData = createPersonalData({ keys });
  const addresses = new Map<string, Set<string>>();
  try {
    const fields = personalDataFields as Record<string, Record<string, string>>;
    for await (const stored of readAllFiltered(eventStore, '', Object.keys(fields))) {
      const subject = personalDataSubject(stored.type, stored.data);
      if (subject === undefined || !erased.has(subject)) continue;
      const [opened] = await personalData.revealEvents([stored]);
      for (const [field, kind] of Object.entries(fields[stored.type] ?? {})) {
        const value = (opened!.data as Record<string, unknown>)[field];
        if (kind !== 'email' || typeof value !== 'string') continue;
        addresses.set(subject, (addresses.get(subject) ?? new Set()).add(value));
      }
    }
  } finally {
    await eventStore.close();
  }
  return addresses;
}

/** Leaves no copy of deleted rows in the file or its write-ahead log. */
function compact(file: string): void {
  const db = new Database(file);
  try {
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/**
 * Gives a restored DATA_DIR the personal-data keys of the backup, except those of the subjects
 * erased (since the backup, or before): for them the store records the erasure, so their names
 * and emails read as erased everywhere, and no new key is made for them. An erased account also
 * loses what would let anyone sign in as it (password, sessions, linked identities, mailed links)
 * and its address reservation, and everyone erased loses the mail the outbox kept for them, as
 * erasing them did in the store the backup was taken from.
 */
export async function reapplyErasures({
  dataDir,
  keysFile,
  erased,
  lookupKeys,
  now = new Date(),
}: {
  dataDir: string;
  /** The backup's personal-data keys, or null when it has none (credentials were in Redis). */
  keysFile: string | null;
  erased: readonly string[];
  lookupKeys: Pick<LookupKeys, 'email'>;
  now?: Date;
}): Promise<{ keys: number; reapplied: number; forgottenMails: number }> {
  const credentialsFile = path.join(dataDir, 'credentials.sqlite');
  if (!keysFile || !existsSync(credentialsFile)) return { keys: 0, reapplied: 0, forgottenMails: 0 };
  const keys = readKeys(keysFile);
  const erasedSet = new Set(erased);
  const addresses = await addressesOf(path.join(dataDir, 'events.sqlite'), backedUpKeys(keys), erasedSet);

  const db = new Database(credentialsFile);
  let kept = 0;
  try {
    const insert = db.prepare('INSERT INTO personal_data_keys (subject, key) VALUES (?, ?)');
    db.transaction(() => {
      for (const [subject, key] of keys) {
        const keep = key && !erasedSet.has(subject);
        insert.run(subject, keep ? key : null);
        if (keep) kept++;
      }
      for (const subject of erasedSet) if (!keys.has(subject)) insert.run(subject, null);
    })();
  } finally {
    db.close();
  }

  const reapplied = [...erasedSet].filter((subject) => keys.get(subject));
  const store = createSqliteCredentialsStore({ path: credentialsFile });
  const eventStore = createSqliteEventStore({ path: path.join(dataDir, 'events.sqlite') });
  const commands = createCommandHandler({ eventStore });
  const outboxFile = path.join(dataDir, 'outbox.sqlite');
  const outbox = existsSync(outboxFile) ? createSqliteOutboxStore({ path: outboxFile }) : null;
  let forgottenMails = 0;
  try {
    for (const subject of reapplied) {
      for (const address of addresses.get(subject) ?? [])
        forgottenMails += (await outbox?.forgetRecipient(address)) ?? 0;
      const userId = USER_SUBJECT.exec(subject)?.[1];
      if (userId === undefined) continue;
      await store.endSessionsOf(userId, now.getTime());
      await store.deletePasswordHash(userId);
      await store.deleteIdentitiesOf(userId);
      await store.deleteOneTimeCodesOf(userId);
      for (const address of addresses.get(subject) ?? []) {
        await commands.handle(emailReservationStreamName(lookupKeys, address), emailReservationDecider, () => ({
          type: 'ReleaseEmail',
          userId,
          at: now.toISOString(),
        }));
      }
    }
  } finally {
    await Promise.all([store.close(), eventStore.close(), outbox?.close()]);
  }
  compact(credentialsFile);
  if (outbox) compact(outboxFile);
  return { keys: kept, reapplied: reapplied.length, forgottenMails };
}
