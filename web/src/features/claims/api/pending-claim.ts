/**
 * The claim link's token and address, kept in this browser while its person signs up and follows
 * the verification link (which may open another tab), and forgotten once the claim is made.
 */
const KEY = 'qrshirt_pending_claim';

export interface PendingClaim {
  token: string;
  email: string | null;
}

export function readPendingClaim(): PendingClaim | null {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (stored && typeof stored === 'object' && typeof (stored as PendingClaim).token === 'string') {
      const { token, email } = stored as PendingClaim;
      return { token, email: typeof email === 'string' ? email : null };
    }
  } catch {
    // Storage refused or a damaged value: as if there were none.
  }
  return null;
}

export function keepPendingClaim(claim: PendingClaim): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(claim));
  } catch {
    // Storage refused (private mode): the claim still works in this page.
  }
}

export function forgetPendingClaim(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
