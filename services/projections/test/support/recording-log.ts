import type { ProjectionLog } from '../../src/apply-batch';

interface LogEntry {
  details: Record<string, unknown>;
  message: string;
}

/** A ProjectionLog that keeps what was logged, for the assertions an operator's log would back. */
export function createRecordingLog() {
  const warnings: LogEntry[] = [];
  const errors: LogEntry[] = [];
  const log: ProjectionLog = {
    warn: (details, message) => void warnings.push({ details: details as Record<string, unknown>, message }),
    error: (details, message) => void errors.push({ details: details as Record<string, unknown>, message }),
  };
  return { log, warnings, errors };
}
