/** What a backup's folder holds; apart from the manifest's schema, which the backup itself need not load. */
export const MANIFEST = 'manifest.json';
export const KEYS_FILE = 'personal-data-keys.sqlite';
export const FORMAT = 'qrshirt-backup/1';

/**
 * The databases of DATA_DIR, in the order they are copied. Read models first: their checkpoints
 * are then never beyond the copied log's head. Credentials last: every key the copied log's
 * sealed values need was made before they were appended, so it is there.
 */
export const DATABASES = ['read-models.sqlite', 'events.sqlite', 'outbox.sqlite', 'credentials.sqlite'] as const;
/** The secrets a start generates into DATA_DIR when they are not set: a restore needs the same. */
export const SECRETS = ['auth-secret', 'lookup-key-secret', 'donation-webhook-secret'] as const;
/** The erasure journal's copy in a backup, whatever its name where it is kept. */
export const JOURNAL = 'erasures.jsonl';
