import { describe, expect, it } from 'vitest';
import { ReplayArgumentError, parseReplayDate, replayWindow } from '../src/replay';

describe('replay window', () => {
  it('takes a day as its first millisecond to start from and its last to end at, in UTC', () => {
    expect(parseReplayDate('2025-03-01', 'start')).toBe(Date.parse('2025-03-01T00:00:00.000Z'));
    expect(parseReplayDate('2025-03-01', 'end')).toBe(Date.parse('2025-03-01T23:59:59.999Z'));
    expect(replayWindow({ from: '2025-03-01', to: '2025-03-01', asOf: '2025-03-02' })).toEqual({
      from: Date.parse('2025-03-01T00:00:00.000Z'),
      to: Date.parse('2025-03-01T23:59:59.999Z'),
      asOf: Date.parse('2025-03-02T23:59:59.999Z'),
    });
  });

  it('takes an instant exactly, offset included', () => {
    expect(parseReplayDate('2025-03-01T12:30:00+02:00', 'end')).toBe(Date.parse('2025-03-01T10:30:00.000Z'));
    expect(replayWindow({ asOf: '2025-03-01T10:30:00.250Z' })).toEqual({
      asOf: Date.parse('2025-03-01T10:30:00.250Z'),
    });
  });

  it('leaves out the bounds not given, or given empty', () => {
    expect(replayWindow({})).toEqual({});
    expect(replayWindow({ from: '', to: '  ' })).toEqual({});
  });

  it('refuses days that do not exist, instants without an offset, and an end before the start', () => {
    for (const text of ['2025-02-30', '2025-13-01', '2025-3-1', '2025-03-01T10:00:00', 'yesterday']) {
      expect(parseReplayDate(text, 'start'), text).toBeUndefined();
    }
    const names = { from: '--from', to: '--to', asOf: '--as-of' };
    expect(() => replayWindow({ asOf: '2025-02-30' }, names)).toThrow(
      new ReplayArgumentError(
        '--as-of must be a day (YYYY-MM-DD, UTC) or an ISO instant with an offset, got "2025-02-30"',
      ),
    );
    expect(() => replayWindow({ from: '2025-03-02', to: '2025-03-01' }, names)).toThrow('--to is before --from');
    expect(() => replayWindow({ from: '2025-03-02', to: '2025-03-01' })).toThrow('to is before from');
  });
});
