import { useCallback, useRef } from 'react';
import { operationUrl } from '@/lib/http';

interface ProofOfWork {
  /** Where the widget lives: inside the form (or beside the button) it proves. */
  widget: React.ReactNode;
  /**
   * Fetches a challenge, solves it in the widget's workers and answers the payload for the
   * X-Altcha header: call it once the form's own checks passed, just before sending.
   */
  solve: () => Promise<string>;
}

/**
 * The ALTCHA widget of an anonymous form that writes or mails something (spec's forms stay as
 * they are: it shows nothing and runs on submit). Its code, its stylesheet and its worker load on
 * the first submit, so no page's first visit pays for them.
 */
export function useProofOfWork(): ProofOfWork {
  const place = useRef<HTMLSpanElement>(null);
  const solve = useCallback(async () => {
    // Never on the server, whose page module must stay one self-contained file: no widget in it.
    if (import.meta.env.SSR || !place.current) throw new Error('The form is no longer on the page');
    const { solveInWidget } = await import('./altcha-widget');
    return solveInWidget(place.current, operationUrl('getChallenge'));
  }, []);
  return { widget: <span ref={place} data-proof-of-work="" />, solve };
}
