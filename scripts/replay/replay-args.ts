import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  ReplayArgumentError,
  type ReplayFormat,
  type ReplayGroupBy,
  type ReplayWindow,
  replayFormats,
  replayGroupings,
  replayWindow,
} from '@qrshirt/projections';

export interface ReplayArgs {
  help: boolean;
  groupBy: ReplayGroupBy;
  format: ReplayFormat;
  window: ReplayWindow;
  /** Where the result goes; stdout when absent. */
  out?: string;
}

export const replayUsage = `Usage: npm run -s replay-donations -- [options]

Replays scans and donations from the event log itself (never the read models) and writes, per
group, scans, donations, gross, refunds, disputes, amount raised, Stripe's fees, the platform's
fees, net (USD) and fundraisers: each payment, refund, dispute and fee on its own day.

Options:
  --group-by day|charity|fundraiser|shirt  what one line stands for (default: day)
  --format csv|ndjson|table                 output format (default: csv)
  --from DATE      only scans and donations that happened at or after DATE (their own time)
  --to DATE        only scans and donations that happened at or before DATE (their own time)
  --as-of DATE     every fundraiser as it stood at DATE: events the store recorded after DATE
                   are ignored (the time the event store recorded them, not the time they report)
  --out FILE       write the result to FILE instead of stdout
  -h, --help       this text

DATE is a UTC day (2025-03-01) or an ISO instant with an offset (2025-03-01T12:00:00Z). Days are
inclusive: --from takes the day's first millisecond, --to and --as-of its last, so
--from 2025-03-01 --to 2025-03-01 covers that whole day.

fundraisers: by day, those with a scan or donation that day; otherwise those created by the end of
the window or with figures in it. By charity or shirt, an empty id gathers figures of fundraiser
ids the log never created.

Reads DATA_DIR/events.sqlite (default ./data), or EventStoreDB when EVENTSTORE_URL is set.
Progress goes to stderr. Bad arguments exit with code 2. Without -s, npm prints its own header on
stdout: use -s or --out for a clean file.
`;

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ReplayArgumentError(`${flag} must be one of ${allowed.join(', ')}, got "${value}"`);
}

/** node:util's parse errors, in one short line each. */
function parseError(error: unknown): ReplayArgumentError {
  const { code, message } = error as { code?: string; message?: string };
  const quoted = /'([^']*)'/.exec(message ?? '')?.[1] ?? '';
  const flag = /--[\w-]+/.exec(quoted)?.[0] ?? quoted;
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new ReplayArgumentError(`unknown option ${quoted}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new ReplayArgumentError(
        message?.includes('does not take an argument') ? `${flag} takes no value` : `${flag} needs a value`,
      );
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new ReplayArgumentError(`unexpected argument "${quoted}"`);
    default:
      return new ReplayArgumentError(String(message ?? error).split('\n')[0]!);
  }
}

/** The command line's options, or a ReplayArgumentError whose message is the one line to print. */
export function parseReplayArgs(argv: readonly string[]): ReplayArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        'group-by': { type: 'string', default: 'day' },
        format: { type: 'string', default: 'csv' },
        from: { type: 'string' },
        to: { type: 'string' },
        'as-of': { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    throw parseError(error);
  }
  if (values.out === '') throw new ReplayArgumentError('--out needs a file name');
  return {
    help: values.help,
    groupBy: oneOf('--group-by', values['group-by'], replayGroupings),
    format: oneOf('--format', values.format, replayFormats),
    window: replayWindow(
      { from: values.from, to: values.to, asOf: values['as-of'] },
      { from: '--from', to: '--to', asOf: '--as-of' },
    ),
    ...(values.out !== undefined && { out: values.out }),
  };
}

type ReplaySource = { kind: 'sqlite'; file: string } | { kind: 'eventstoredb'; url: string };

/**
 * The log the product runs on: EventStoreDB when EVENTSTORE_URL is set, else the SQLite file in
 * DATA_DIR. Read on its own rather than through the gateway's configuration, so that settings
 * only a server needs (secrets, ports) cannot stop an analyst's replay.
 */
export function replaySource(env: NodeJS.ProcessEnv): ReplaySource {
  const url = env.EVENTSTORE_URL?.trim();
  if (url) return { kind: 'eventstoredb', url };
  return { kind: 'sqlite', file: path.resolve(env.DATA_DIR?.trim() || './data', 'events.sqlite') };
}
