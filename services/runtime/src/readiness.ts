/** Resolves when the dependency answers; rejects with what is wrong otherwise. */
export type ReadinessCheck = () => Promise<unknown>;

export interface ReadinessReport {
  ready: boolean;
  /** Per dependency: 'up', or 'down: <reason>'. */
  checks: Record<string, string>;
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
}

const DEFAULT_TIMEOUT_MS = 2_000;

/**
 * GET /readyz's logic: every dependency asked at once, each within `timeoutMs` (a client that
 * queues commands while its server is away would otherwise keep the probe waiting).
 */
export function createReadiness(checks: Record<string, ReadinessCheck>, timeoutMs = DEFAULT_TIMEOUT_MS): Readiness {
  return {
    async check() {
      const results = await Promise.all(
        Object.entries(checks).map(async ([name, check]) => [name, await outcome(check, timeoutMs)] as const),
      );
      return { ready: results.every(([, result]) => result === 'up'), checks: Object.fromEntries(results) };
    },
  };
}

async function outcome(check: ReadinessCheck, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const checking = check();
  // The losing side may still settle later; nothing may treat that as unhandled.
  checking.catch(() => {});
  try {
    await Promise.race([checking, timeout]);
    return 'up';
  } catch (error) {
    return `down: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    clearTimeout(timer);
  }
}

/** The HTTP answer for a report: 200, or 503 with an `error` naming what is down (`checks` says why). */
export function readinessAnswer(report: ReadinessReport): { status: number; body: object } {
  if (report.ready) return { status: 200, body: { status: 'ready', checks: report.checks } };
  const down = Object.entries(report.checks)
    .filter(([, result]) => result !== 'up')
    .map(([name]) => name);
  return { status: 503, body: { error: `Not ready: ${down.join(', ')} down`, checks: report.checks } };
}
