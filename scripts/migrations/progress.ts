const REPORT_EVERY_MS = 1_000;

/** A progress line: the first at once (the run is under way), then one a second at most. */
export function throttled(say: (line: string) => void, report: () => string): () => void {
  let last = 0;
  return () => {
    if (Date.now() - last < REPORT_EVERY_MS) return;
    last = Date.now();
    say(report());
  };
}
