import { describe, expect, it } from 'vitest';
import { dueDay, summariseDay } from '../../src/owner-mail/daily-summary';
import { createUnsubscribeTokens } from '../../src/owner-mail/unsubscribe-token';
import { createHmac } from 'node:crypto';

const day = (date: string, figures: { scans?: number; donations?: number; amountRaised?: number }) => ({
  date,
  scans: 0,
  scanRequests: figures.scans ?? 0,
  donations: 0,
  amountRaised: 0,
  ...figures,
});

describe('which day a summary is due for', () => {
  it('is the day that ended, once a quarter of an hour has let its last scans be counted', () => {
    expect(dueDay(new Date('2030-05-02T00:14:59Z'))).toBe('2030-04-30');
    expect(dueDay(new Date('2030-05-02T00:15:00Z'))).toBe('2030-05-01');
    expect(dueDay(new Date('2030-05-02T23:59:59Z'))).toBe('2030-05-01');
  });
});

describe('an owner’s summary of a day', () => {
  const hike = {
    fundraiserId: 'f-1',
    name: 'Hike',
    daily: [day('2030-05-01', { scans: 12, donations: 2, amountRaised: 30.1 })],
  };
  const run = { fundraiserId: 'f-2', name: 'Run', daily: [day('2030-05-01', { donations: 1, amountRaised: 0.2 })] };
  const nap = { fundraiserId: 'f-3', name: 'Nap', daily: [day('2030-04-30', { scans: 5 })] };

  it('adds up the shirts that had scans or money that day, and lists only them', () => {
    expect(summariseDay('2030-05-01', [hike, nap, run])).toEqual({
      day: '2030-05-01',
      shirts: [
        { fundraiserId: 'f-1', name: 'Hike', scans: 12, donations: 2, amountRaised: 30.1 },
        { fundraiserId: 'f-2', name: 'Run', scans: 0, donations: 1, amountRaised: 0.2 },
      ],
      scans: 12,
      donations: 3,
      amountRaised: 30.3,
    });
  });

  it('is nothing on a quiet day: no counted scan, no money, or only a refund', () => {
    expect(summariseDay('2030-05-02', [hike, run, nap])).toBeNull();
    expect(summariseDay('2030-05-01', [])).toBeNull();
    const uncounted = { fundraiserId: 'f-4', name: 'Bots', daily: [{ ...day('2030-05-01', {}), scanRequests: 40 }] };
    const refunded = {
      fundraiserId: 'f-5',
      name: 'Oops',
      daily: [day('2030-05-01', { donations: -1, amountRaised: -5 })],
    };
    expect(summariseDay('2030-05-01', [uncounted, refunded])).toBeNull();
  });
});

describe('unsubscribe tokens', () => {
  const sign = (text: string) => createHmac('sha256', 'server secret').update(text).digest('hex');
  const tokens = createUnsubscribeTokens(sign);

  it('name the account they were made for', () => {
    expect(tokens.userIdOf(tokens.tokenFor('u-1'))).toBe('u-1');
    expect(tokens.userIdOf(tokens.tokenFor('user.with.dots'))).toBe('user.with.dots');
  });

  it('cannot be made without the secret, nor moved to another account', () => {
    const token = tokens.tokenFor('u-1');
    const signature = token.split('.')[1]!;
    const otherSecret = createUnsubscribeTokens((text) => createHmac('sha256', 'guess').update(text).digest('hex'));
    expect(tokens.userIdOf(otherSecret.tokenFor('u-1'))).toBeNull();
    expect(tokens.userIdOf(`${Buffer.from('u-2').toString('base64url')}.${signature}`)).toBeNull();
    expect(tokens.userIdOf(`${token}x`)).toBeNull();
    expect(tokens.userIdOf(`${token}.x`)).toBeNull();
    expect(tokens.userIdOf('')).toBeNull();
    expect(tokens.userIdOf('.')).toBeNull();
  });
});
