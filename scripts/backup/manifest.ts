import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { FORMAT, MANIFEST } from './layout';
import { BACKUP_KEY_VARIABLE, isSignedBy, SIGNATURE } from './signature';
import { sha256Of } from './snapshot';

const copied = z.object({
  // A plain file name in the backup's folder: never a path out of it.
  name: z.string().regex(/^[a-z][a-z0-9.-]*$/),
  bytes: z.number().int().min(0),
  sha256: z.string(),
});

export const manifestSchema = z.object({
  format: z.literal(FORMAT),
  takenAt: z.string(),
  from: z.string(),
  files: z.array(
    copied.extend({
      /** events.sqlite: its last position and how many events it holds. */
      headPosition: z.number().int().optional(),
      events: z.number().int().optional(),
      /** read-models.sqlite: each projection's checkpoint. */
      checkpoints: z.record(z.string(), z.number()).optional(),
      /** outbox.sqlite: messages kept. */
      messages: z.number().int().optional(),
    }),
  ),
  /** The personal-data keys, in a file of their own, wherever `--keys-to` put it. */
  keys: copied.extend({ keys: z.number().int(), erased: z.number().int() }).nullable(),
  /** The erasure journal as it was once the databases were copied; absent where it had none. */
  journal: copied.nullable().optional(),
});
export type Manifest = z.infer<typeof manifestSchema>;

export class BadBackupError extends Error {}

const readIfThere = (file: string) =>
  readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });

/**
 * The backup's manifest, checked against its signature under `key`, and every file it names
 * against its size and checksum. A signed backup needs the key, and with a key every backup must
 * be signed: a signature taken away would otherwise pass an altered backup. Answers whether the
 * manifest was signed.
 */
export async function verifiedManifest(
  from: string,
  keysFrom: string,
  key: string | undefined,
): Promise<{ manifest: Manifest; signed: boolean }> {
  const manifestFile = path.join(from, MANIFEST);
  const bytes = await readIfThere(manifestFile);
  if (!bytes) throw new BadBackupError(`${manifestFile} is missing or not a backup manifest`);
  const signature = await readIfThere(path.join(from, SIGNATURE));
  if (signature && !key) {
    throw new BadBackupError(`the backup is signed: set ${BACKUP_KEY_VARIABLE} as the backup had it`);
  }
  if (key && !signature) {
    throw new BadBackupError(`${manifestFile} is not signed, and ${BACKUP_KEY_VARIABLE} is set: it may be forged`);
  }
  if (key && signature && !isSignedBy(bytes, signature.toString('utf8'), key)) {
    throw new BadBackupError(
      `${manifestFile} does not match its signature under ${BACKUP_KEY_VARIABLE}: it was altered`,
    );
  }
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(bytes.toString('utf8')));
  } catch {
    throw new BadBackupError(`${manifestFile} is missing or not a backup manifest`);
  }
  const files = manifest.files.map((file) => ({ ...file, at: path.join(from, file.name) }));
  if (manifest.keys) files.push({ ...manifest.keys, at: path.join(keysFrom, manifest.keys.name) });
  if (manifest.journal) files.push({ ...manifest.journal, at: path.join(from, manifest.journal.name) });
  for (const file of files) {
    const size = await stat(file.at).then(
      (s) => s.size,
      () => null,
    );
    if (size === null) throw new BadBackupError(`${file.at} is missing`);
    if (size !== file.bytes || (await sha256Of(file.at)) !== file.sha256) {
      throw new BadBackupError(`${file.at} does not match the manifest's checksum`);
    }
  }
  return { manifest, signed: signature !== undefined };
}
