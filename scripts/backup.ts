/**
 * A consistent copy of every database in DATA_DIR, taken while the product runs:
 *   npm run backup -- --to DIR [--keys-to KEYS_DIR] [--data-dir DATA_DIR]
 * (scripts/backup/take-backup.ts).
 */
import { constants, setPriority } from 'node:os';

// The product shares the machine's cores with the backup: it goes first. Set before anything else
// is loaded, since loading the modules costs as much CPU as copying 100,000 events, and before the
// copying thread starts, which takes the priority of the thread that makes it.
setPriority(constants.priority.PRIORITY_LOW);
const { takeBackup } = await import('./backup/take-backup');
await takeBackup();
