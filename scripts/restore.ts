/**
 * Makes a new DATA_DIR from a backup of `npm run backup`, with the product stopped:
 *   npm run restore -- --from DIR (--erasures FILE | --no-erasures) [--keys-from KEYS_DIR] [--data-dir DATA_DIR]
 * Checks every file against the manifest, never writes into a folder that holds anything, and
 * destroys again the keys of everyone the erasure journal names: a backup from before someone was
 * erased still holds their key.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lookupKeysOf, loadGatewayConfigOrExit } from '@qrshirt/gateway';
import { readErasureJournal, restrictNewFiles } from '@qrshirt/runtime';
import { KEYS_FILE } from './backup/layout';
import { BadBackupError, verifiedManifest } from './backup/manifest';
import { BACKUP_KEY_VARIABLE, backupKey } from './backup/signature';
import { reapplyErasures } from './backup/reapply-erasures';
import { recloseAccounts } from './backup/reclose-accounts';
import { syncFile } from './backup/snapshot';
import { failWith, parseCommandLine } from './backup/command-line';
import { removeOnInterrupt, removeStaleStaging, stagingFolder } from './backup/staging';

const NAME = 'restore';
/** `<DATA_DIR>.restoring-<pid>`: where a restore is written until it is complete. */
const STAGING_TAG = 'restoring';
const USAGE = `Usage: npm run ${NAME} -- --from DIR (--erasures FILE | --no-erasures) [--keys-from DIR] [--data-dir DIR]

Restores a backup made by \`npm run backup\` into DATA_DIR (default: the DATA_DIR setting, else
./data), which must not exist or be empty. Run it with the environment \`npm start\` uses, and
with the BACKUP_HMAC_KEY the backup was signed with.

Options:
  --from DIR         the backup
  --keys-from DIR    where its personal-data keys are (default: DIR/keys)
  --erasures FILE    the erasure journal of the store the backup was taken from (default: the
                     ERASURE_JOURNAL setting): everyone it names is erased again
  --no-erasures      there is no journal newer than the backup: only the erasures the backup's
                     own copy of the journal holds are applied again
  --data-dir DIR     the folder to restore into
  -h, --help         this text
`;

const fail = failWith(NAME);

function parse() {
  const values = parseCommandLine(
    {
      from: { type: 'string' },
      'keys-from': { type: 'string' },
      erasures: { type: 'string' },
      'no-erasures': { type: 'boolean' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
    fail,
  );
  if (!values.from) return fail('--from DIR is required (see --help)', 2);
  if (values.erasures && values['no-erasures']) return fail('--erasures and --no-erasures exclude each other', 2);
  const from = path.resolve(values.from);
  return {
    from,
    keysFrom: path.resolve(values['keys-from'] ?? path.join(from, 'keys')),
    erasures: values.erasures === undefined ? undefined : path.resolve(values.erasures),
    noErasures: values['no-erasures'] === true,
    dataDir: values['data-dir'],
  };
}

async function main(): Promise<void> {
  const args = parse();
  const config = loadGatewayConfigOrExit(args.dataDir ? { ...process.env, DATA_DIR: args.dataDir } : process.env);
  restrictNewFiles();
  const target = path.resolve(config.DATA_DIR);

  const entries = await readdir(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (entries.length > 0) fail(`${target} is not empty: restore into a new or empty DATA_DIR`, 2);
  const signing = backupKey(process.env);
  if ('error' in signing) return fail(signing.error, 2);
  const { manifest, signed } = await verifiedManifest(args.from, args.keysFrom, signing.key).catch((error: unknown) => {
    if (error instanceof BadBackupError) return fail(error.message, 2);
    throw error;
  });

  // In the journal the backed-up store kept. By default in DATA_DIR, which is empty now: the old
  // folder's, or the one ERASURE_JOURNAL kept on another disk, must be named. It must continue the
  // backup's copy (the journal is only appended to): an older one, or another store's, would
  // leave out erasures the backup already knew of. Without one, the backup's copy is all there is.
  const copied = manifest.journal ? path.join(args.from, manifest.journal.name) : undefined;
  const journal = args.noErasures ? copied : (args.erasures ?? config.erasureJournalFile);
  if (!args.noErasures) {
    if (!existsSync(journal!)) {
      fail(`no erasure journal at ${journal}: name it with --erasures FILE, or say --no-erasures`, 2);
    }
    const known = copied ? await readFile(copied) : Buffer.alloc(0);
    if (!(await readFile(journal!)).subarray(0, known.length).equals(known)) {
      fail(
        `${journal} does not continue the erasure journal the backup holds: name the journal of the store ` +
          `the backup was taken from, or say --no-erasures`,
        2,
      );
    }
  }
  const erased = journal ? await readErasureJournal(journal) : [];

  if (!config.LOOKUP_KEY_SECRET && !manifest.files.some(({ name }) => name === 'lookup-key-secret')) {
    fail('the backup holds no lookup-key-secret: set LOOKUP_KEY_SECRET as `npm start` has it', 2);
  }

  // Restored beside DATA_DIR, then renamed into it: a run that fails leaves DATA_DIR as it was.
  await removeStaleStaging(target, STAGING_TAG);
  const staging = stagingFolder(target, STAGING_TAG);
  const keepOnInterrupt = removeOnInterrupt([staging], NAME);
  try {
    await mkdir(staging, { recursive: true, mode: 0o700 });
    for (const { name } of manifest.files) await copyFile(path.join(args.from, name), path.join(staging, name));
    // In the product's order: the closing first, then what follows from it.
    const reclosed = await recloseAccounts(
      path.join(staging, 'events.sqlite'),
      erased.flatMap(({ act }) => (act ? [act] : [])),
    );
    const result = await reapplyErasures({
      dataDir: staging,
      keysFile: manifest.keys && path.join(args.keysFrom, KEYS_FILE),
      erased: erased.map(({ subject }) => subject),
      lookupKeys: lookupKeysOf({
        LOOKUP_KEY_SECRET: config.LOOKUP_KEY_SECRET,
        lookupKeySecretFile: path.join(staging, 'lookup-key-secret'),
      }),
    });
    // The restored store keeps the journal with it, so a later restore of an older backup has it.
    const journalInside = path.relative(target, config.erasureJournalFile);
    if (journal && erased.length > 0 && !journalInside.startsWith('..') && journal !== config.erasureJournalFile) {
      await mkdir(path.dirname(path.join(staging, journalInside)), { recursive: true, mode: 0o700 });
      await writeFile(path.join(staging, journalInside), await readFile(journal));
    }
    for (const name of await readdir(staging)) await syncFile(path.join(staging, name));
    if (existsSync(target)) await rm(target, { recursive: true });
    await rename(staging, target);
    await syncFile(path.dirname(target));
    const events = manifest.files.find(({ name }) => name === 'events.sqlite');
    process.stderr.write(
      `${NAME}: ${target} holds the backup of ${manifest.takenAt} (${events?.events ?? 0} events); ` +
        `${result.keys} personal-data keys, ${result.reapplied} people erased since, ${result.forgottenMails} of their mails forgotten, ` +
        `${reclosed} accounts closed since\n`,
    );
    if (args.noErasures) {
      process.stderr.write(
        `${NAME}: warning: --no-erasures: only the ${erased.length} erasures the backup's journal holds were ` +
          `applied; anyone erased after ${manifest.takenAt} is back, name and email: erase them again\n`,
      );
    }
    if (!signed) {
      process.stderr.write(
        `${NAME}: warning: the backup is not signed (${BACKUP_KEY_VARIABLE} was not set when it was taken): ` +
          `nothing shows that it was not altered\n`,
      );
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  } finally {
    keepOnInterrupt();
  }
}

await main();
