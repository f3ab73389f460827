import { describe, expect, it } from 'vitest';
import { createProgress } from '../replay/progress';

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  return { stream: { isTTY, columns: 80, write: (text: string) => written.push(text) }, written };
}

describe('progress on stderr', () => {
  it('prints nothing for a short run', () => {
    let now = 0;
    for (const isTTY of [true, false]) {
      const { stream, written } = fakeStream(isTTY);
      const progress = createProgress(stream, 'replay', () => now);
      now = 900;
      progress.update(900, 1000, '900 events');
      progress.finish();
      expect(written).toEqual([]);
    }
  });

  it('redraws a bar in place on a terminal, at most ten times a second, and clears it at the end', () => {
    let now = 0;
    const { stream, written } = fakeStream(true);
    const progress = createProgress(stream, 'replay', () => now);
    now = 1_000;
    progress.update(250, 1000, '250 events');
    now = 1_050;
    progress.update(300, 1000, '300 events');
    now = 1_100;
    progress.update(1000, 1000, '1000 events');
    progress.finish();
    expect(written).toEqual([
      `\rreplay [${'#'.repeat(8)}${'.'.repeat(22)}]  25% 250 events\x1b[K`,
      `\rreplay [${'#'.repeat(30)}] 100% 1000 events\x1b[K`,
      '\r\x1b[K',
    ]);
  });

  it('writes a plain line every five seconds elsewhere, with nothing to clear', () => {
    let now = 0;
    const { stream, written } = fakeStream(false);
    const progress = createProgress(stream, 'replay', () => now);
    for (now = 1_000; now <= 12_000; now += 1_000) progress.update(now, 12_000, `${now} events`);
    progress.finish();
    expect(written).toEqual(['replay: 8% 1000 events\n', 'replay: 50% 6000 events\n', 'replay: 91% 11000 events\n']);
  });
});
