import 'altcha/external';
import 'altcha/altcha.css';
import ShaWorker from 'altcha/workers/sha?worker';

// The gateway's challenges are iterated SHA-256: the one worker they need, a file of this site's
// own (the external build has none inlined), which the Content-Security-Policy lets it start.
$altcha.algorithms.set('SHA-256', () => new ShaWorker());

/** The widget in `place` (made on first use) solves a challenge from `challengeUrl`; answers its payload. */
export async function solveInWidget(place: HTMLElement, challengeUrl: string): Promise<string> {
  let widget = place.querySelector('altcha-widget');
  if (!widget) {
    widget = document.createElement('altcha-widget');
    place.append(widget);
  }
  // Its methods are there once it has mounted, which it says with `load`.
  if (!widget.verify) {
    const mounted = widget;
    await new Promise((resolve) => mounted.addEventListener('load', resolve, { once: true }));
  }
  await widget.configure({
    challenge: challengeUrl,
    display: 'invisible',
    // No artificial delay, and nothing collected for a verification service: there is none.
    minDuration: 0,
    humanInteractionSignature: false,
  });
  const result = await widget.verify();
  if (!result?.payload) throw new Error('The anti-spam check could not be completed. Please try again.');
  return result.payload;
}
