import { createLookupKeys, type LookupKeys } from '@qrshirt/core';
import { generatedSecret } from '@qrshirt/runtime';
import type { Config } from '../config';

/**
 * The lookup keys every process and script of this environment names things by: under
 * LOOKUP_KEY_SECRET, or without it a secret generated on first start into DATA_DIR (mode 0600),
 * which every process on that folder shares. Separate from the sign-in secret, which may be
 * rotated (signing everyone out): this one never changes.
 */
export function lookupKeysOf(config: Pick<Config, 'LOOKUP_KEY_SECRET' | 'lookupKeySecretFile'>): LookupKeys {
  return createLookupKeys(config.LOOKUP_KEY_SECRET ?? generatedSecret(config.lookupKeySecretFile));
}
