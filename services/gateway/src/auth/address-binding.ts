import { type OneTimeCode, unkeyedEmailHash } from '@qrshirt/core';
import { equalSecrets, sha256 } from './secrets';

/**
 * What a mailed link's code is bound to: a hash of the link's secret with the addresses it was
 * mailed for (any case; null for an account without one). Stored beside the code, it lets the
 * spender check the account still has those addresses, while the store holds nothing anyone could
 * read an address from without the link itself. The link's secret, which only its mail holds, keys
 * the hash: an address hash inside it needs no key of its own, and stays the one links mailed
 * before lookup keys were bound with.
 */
export function addressBinding(token: string, ...addresses: readonly (string | null)[]): string {
  return sha256([token, ...addresses.map((address) => (address === null ? '' : unkeyedEmailHash(address)))].join('\n'));
}

/** Whether the code was bound to these addresses; never for a code stored without a binding. */
export function boundTo(code: OneTimeCode, token: string, ...addresses: readonly (string | null)[]): boolean {
  return code.addressHash !== null && equalSecrets(code.addressHash, addressBinding(token, ...addresses));
}
