import { emailKey, type OneTimeCode } from '@qrshirt/core';
import { equalSecrets, sha256 } from './secrets';

/**
 * What a mailed link's code is bound to: a hash of the link's secret with the addresses it was
 * mailed for (any case; null for an account without one). Stored beside the code, it lets the
 * spender check the account still has those addresses, while the store holds nothing anyone could
 * read an address from without the link itself.
 */
export function addressBinding(token: string, ...addresses: readonly (string | null)[]): string {
  return sha256([token, ...addresses.map((address) => (address === null ? '' : emailKey(address)))].join('\n'));
}

/** Whether the code was bound to these addresses; never for a code stored without a binding. */
export function boundTo(code: OneTimeCode, token: string, ...addresses: readonly (string | null)[]): boolean {
  return code.addressHash !== null && equalSecrets(code.addressHash, addressBinding(token, ...addresses));
}

/** Two spellings of one address (case, surrounding blanks) are the same address. */
export const sameAddress = (a: string | null, b: string | null): boolean =>
  a !== null && b !== null && emailKey(a) === emailKey(b);
