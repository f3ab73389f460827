import type { CredentialsStore } from '../ports/credentials-store';

/**
 * Ends every link mailed for the account so far, whatever it was for (verification, password reset,
 * change of address, a Google hand-over): whoever had the account or its address before (a
 * squatter, its former owner) keeps nothing that acts for it. The one step that recovering an
 * account (a password reset, a Google takeover), moving it to another address and closing it all
 * take.
 */
export function endMailedLinks(
  credentials: Pick<CredentialsStore, 'deleteOneTimeCodesOf'>,
  uid: string,
): Promise<void> {
  return credentials.deleteOneTimeCodesOf(uid);
}
