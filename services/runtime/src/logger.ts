import { type LevelWithSilent, type Logger, pino } from 'pino';
import { openLogFiles } from './log-files';
import { logRedaction, maskEmails } from './log-redaction';

/**
 * A process's logger: JSON lines with secrets and personal data redacted by field and email
 * addresses masked anywhere in the line. On stdout, or with `logDir` in daily files kept
 * `LOG_RETENTION_DAYS` and not on stdout: whatever keeps stdout (journald, Docker) would hold a
 * copy past the retention the privacy policy promises.
 */
export async function createLogger({
  service,
  level,
  logDir,
}: {
  service: string;
  level: LevelWithSilent;
  logDir?: string | undefined;
}): Promise<Logger> {
  const options = { level, redact: logRedaction, hooks: { streamWrite: maskEmails } };
  return logDir ? pino(options, await openLogFiles({ dir: logDir, service })) : pino(options);
}
