import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from './private-folders';

/**
 * A secret a start without its variable needs (AUTH_JWT_SECRET, LOOKUP_KEY_SECRET,
 * DONATION_WEBHOOK_SECRET): 256
 * random bits made on first start, written as `format` says (hex by default), and kept in `file`
 * (mode 0600), so no secret anyone can read in the repository signs anything, and every process on
 * one data folder (start:distributed's gateways) uses the same one.
 * Written to a private temporary file and hard-linked into place: link() fails when the file
 * exists, so of two processes starting at once one creates it and the other reads it, never a
 * half-written copy.
 */
export function generatedSecret(
  file: string,
  format: (bytes: Buffer) => string = (bytes) => bytes.toString('hex'),
): string {
  mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const read = () => readFileSync(file, 'utf8').trim();
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(temporary, `${format(randomBytes(32))}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  return read();
}
