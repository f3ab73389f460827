/** What progress is written to: process.stderr, or a stand-in in tests. */
interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

interface Progress {
  update(done: number, total: number, detail: string): void;
  /** Clears the bar, so whatever is printed next starts on a clean line. */
  finish(): void;
}

/** Short runs print nothing: progress shows only once a run has lasted this long. */
const SHOW_AFTER_MS = 1_000;
const REDRAW_EVERY_MS = 100;
/** A log file or CI output gets a plain line now and then, not a redrawn bar. */
const LINE_EVERY_MS = 5_000;
const BAR_WIDTH = 30;

/** A bar redrawn in place on a terminal; a periodic plain line anywhere else. */
export function createProgress(stream: ProgressStream, label: string, now: () => number = Date.now): Progress {
  const startedAt = now();
  let nextAt = startedAt + SHOW_AFTER_MS;
  let drawn = false;

  return {
    update(done, total, detail) {
      const time = now();
      if (time < nextAt) return;
      const share = total > 0 ? Math.min(1, done / total) : 1;
      const percent = `${Math.floor(share * 100)}%`.padStart(4);
      if (stream.isTTY) {
        const width = Math.max(10, Math.min(BAR_WIDTH, (stream.columns ?? 80) - label.length - detail.length - 10));
        const filled = Math.round(share * width);
        stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent} ${detail}\x1b[K`);
        drawn = true;
        nextAt = time + REDRAW_EVERY_MS;
      } else {
        stream.write(`${label}: ${percent.trim()} ${detail}\n`);
        nextAt = time + LINE_EVERY_MS;
      }
    },
    finish() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}
