import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { parseReplayArgs, replaySource } from '../replay/replay-args';

describe('replay-donations arguments', () => {
  it('defaults to CSV per day over the whole log, on stdout', () => {
    expect(parseReplayArgs([])).toEqual({ help: false, groupBy: 'day', format: 'csv', window: {} });
  });

  it('reads every option, days as inclusive bounds', () => {
    const args = [
      '--group-by',
      'shirt',
      '--format=table',
      '--from',
      '2025-03-01',
      '--to',
      '2025-03-02',
      '--as-of',
      '2025-03-05T12:00:00Z',
      '--out',
      'x.csv',
    ];
    expect(parseReplayArgs(args)).toEqual({
      help: false,
      groupBy: 'shirt',
      format: 'table',
      window: {
        from: Date.parse('2025-03-01T00:00:00.000Z'),
        to: Date.parse('2025-03-02T23:59:59.999Z'),
        asOf: Date.parse('2025-03-05T12:00:00.000Z'),
      },
      out: 'x.csv',
    });
    expect(parseReplayArgs(['-h']).help).toBe(true);
  });

  it.each([
    [['--group-by', 'month'], '--group-by must be one of day, charity, fundraiser, shirt, got "month"'],
    [['--format', 'xml'], '--format must be one of csv, ndjson, table, got "xml"'],
    [
      ['--from', 'yesterday'],
      '--from must be a day (YYYY-MM-DD, UTC) or an ISO instant with an offset, got "yesterday"',
    ],
    [['--from', '2025-03-02', '--to', '2025-03-01'], '--to is before --from'],
    [['--as-of'], '--as-of needs a value'],
    [['--from', '--to', '2025-03-01'], '--from needs a value'],
    [['--help=yes'], '--help takes no value'],
    [['--out='], '--out needs a file name'],
    [['--since', '2025-03-01'], 'unknown option --since'],
    [['charity'], 'unexpected argument "charity"'],
  ])('refuses %j in one line: %s', (argv, message) => {
    let thrown: unknown;
    try {
      parseReplayArgs(argv);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ name: 'ReplayArgumentError', message });
  });
});

describe('replay-donations source', () => {
  it('reads the SQLite file in DATA_DIR (./data by default), or EventStoreDB when EVENTSTORE_URL is set', () => {
    expect(replaySource({ DATA_DIR: '/srv/qr' })).toEqual({ kind: 'sqlite', file: '/srv/qr/events.sqlite' });
    expect(replaySource({ EVENTSTORE_URL: ' ' })).toEqual({
      kind: 'sqlite',
      file: path.resolve('data', 'events.sqlite'),
    });
    expect(replaySource({ DATA_DIR: '/srv/qr', EVENTSTORE_URL: 'esdb://es:2113?tls=false' })).toEqual({
      kind: 'eventstoredb',
      url: 'esdb://es:2113?tls=false',
    });
  });
});
