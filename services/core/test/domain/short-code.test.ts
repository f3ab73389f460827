import type { EventOf } from '@qrshirt/contracts';
import { createInMemoryEventStore } from '@qrshirt/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { type CommandHandler, createCommandHandler } from '../../src/kit/command-handler';
import type { EventStore } from '../../src/kit/event-store';
import { fundraiserDecider, fundraiserStreamName } from '../../src/fundraisers/fundraiser-decider';
import {
  normaliseShortCode,
  SHORT_CODE_ALPHABET,
  SHORT_CODE_LENGTH,
  shortCodeCandidate,
  shortCodeDecider,
  shortCodeStreamName,
} from '../../src/fundraisers/short-code';
import { createShortCodes } from '../../src/fundraisers/short-codes';
import { deciderSpec } from './decider-spec';
import { T0, T1, charity, shirt } from './fixtures';

const created: EventOf<'FundraiserCreated'> = {
  type: 'FundraiserCreated',
  data: {
    fundraiserId: 'f-1',
    userId: 'user-1',
    charityId: 'givedirectly',
    shirtId: 'scan-me-maybe',
    name: 'Scan Me Maybe',
    at: T0,
  },
};

describe('short codes', () => {
  it('are 8 characters with no look-alikes (no 0/o, 1/l/i), the same for a fundraiser in every process', () => {
    expect(SHORT_CODE_LENGTH).toBeLessThanOrEqual(8);
    for (const lookAlike of ['0', 'o', '1', 'l', 'i']) expect(SHORT_CODE_ALPHABET).not.toContain(lookAlike);
    const codes = Array.from({ length: 2000 }, (_, index) => shortCodeCandidate(`fundraiser-${index}`, 0));
    for (const code of codes) expect(code).toMatch(new RegExp(`^[${SHORT_CODE_ALPHABET}]{${SHORT_CODE_LENGTH}}$`));
    expect(new Set(codes).size).toBe(codes.length);
    // Every character turns up: the candidates spread over the whole alphabet.
    expect(new Set(codes.join('')).size).toBe(SHORT_CODE_ALPHABET.length);
    expect(shortCodeCandidate('f-1', 0)).toBe(shortCodeCandidate('f-1', 0));
    expect(shortCodeCandidate('f-1', 1)).not.toBe(shortCodeCandidate('f-1', 0));
  });

  it('are read in any case and with stray spaces; anything else is no code', () => {
    expect(normaliseShortCode(' ABCD2345 ')).toBe('abcd2345');
    for (const input of ['abcd234', 'abcd23456', 'abcd2340', 'abcl2345', 'abc-2345', '<script>', '%FF', ''])
      expect(normaliseShortCode(input)).toBeNull();
  });
});

describe('short code reservation decider', () => {
  const spec = deciderSpec(shortCodeDecider);
  const reserve = { type: 'ReserveShortCode', code: 'abcd2345', fundraiserId: 'f-1', at: T0 } as const;
  const reserved: EventOf<'ShortCodeReserved'> = {
    type: 'ShortCodeReserved',
    data: { code: 'abcd2345', fundraiserId: 'f-1', at: T0 },
  };

  it('reserves a free code for the fundraiser, and nothing once any fundraiser holds it', () => {
    spec.given([]).when(reserve).then([reserved]);
    spec
      .given([reserved])
      .when({ ...reserve, fundraiserId: 'f-2' })
      .then([]);
    spec.given([reserved]).when(reserve).then([]);
  });
});

describe('fundraiser decider: the short code', () => {
  const spec = deciderSpec(fundraiserDecider);
  const assign = { type: 'AssignShortCode', code: 'abcd2345', at: T1 } as const;
  const assigned: EventOf<'FundraiserShortCodeAssigned'> = {
    type: 'FundraiserShortCodeAssigned',
    data: { fundraiserId: 'f-1', code: 'abcd2345', at: T1 },
  };

  it('gives a fundraiser its code once: a printed code never changes', () => {
    spec.given([created]).when(assign).then([assigned]);
    spec
      .given([created, assigned])
      .when({ ...assign, code: 'zzzz2345' })
      .then([]);
  });

  it('refuses an unknown fundraiser', () => {
    spec.given([]).when(assign).thenFails('not_found', 'Fundraiser not found');
  });
});

describe('short code use cases', () => {
  let eventStore: EventStore;
  let commands: CommandHandler;
  let projected: Map<string, string>;

  const shortCodes = () =>
    createShortCodes({
      commands,
      fundraiserIdByShortCode: async (code) => projected.get(code) ?? null,
      clock: () => new Date(T1),
    });
  const createFundraiser = (fundraiserId: string) =>
    commands.handle(fundraiserStreamName(fundraiserId), fundraiserDecider, () => ({
      type: 'CreateFundraiser',
      fundraiserId,
      userId: 'user-1',
      charity,
      shirt,
      at: T0,
    }));
  const typesOf = async (stream: string) => (await eventStore.readStream(stream)).map((event) => event.type);

  beforeEach(() => {
    eventStore = createInMemoryEventStore();
    commands = createCommandHandler({ eventStore });
    projected = new Map();
  });

  it('gives an existing fundraiser its first free candidate by events, leaving its history as it was', async () => {
    await createFundraiser('f-1');
    const [before] = await eventStore.readStream(fundraiserStreamName('f-1'));
    const code = await shortCodes().assign('f-1');
    expect(code).toBe(shortCodeCandidate('f-1', 0));
    const stream = await eventStore.readStream(fundraiserStreamName('f-1'));
    expect(stream[0]).toEqual(before);
    expect(stream.map((event) => [event.type, event.data])).toEqual([
      ['FundraiserCreated', before!.data],
      ['FundraiserShortCodeAssigned', { fundraiserId: 'f-1', code, at: T1 }],
    ]);
    expect(await typesOf(shortCodeStreamName(code))).toEqual(['ShortCodeReserved']);
    // Asked again, by this process or another: the same code, nothing new.
    expect(await shortCodes().assign('f-1')).toBe(code);
    expect(await typesOf(fundraiserStreamName('f-1'))).toHaveLength(2);
  });

  it('gives one code when several gateways ask at once', async () => {
    await createFundraiser('f-1');
    const codes = await Promise.all([
      shortCodes().assign('f-1'),
      shortCodes().assign('f-1'),
      shortCodes().assign('f-1'),
    ]);
    expect(new Set(codes).size).toBe(1);
    expect(await typesOf(fundraiserStreamName('f-1'))).toEqual(['FundraiserCreated', 'FundraiserShortCodeAssigned']);
    expect(await typesOf(shortCodeStreamName(codes[0]))).toEqual(['ShortCodeReserved']);
  });

  it('never shares a code: a candidate another fundraiser holds is passed over', async () => {
    await createFundraiser('f-1');
    const taken = shortCodeCandidate('f-1', 0);
    await commands.handle(shortCodeStreamName(taken), shortCodeDecider, () => ({
      type: 'ReserveShortCode',
      code: taken,
      fundraiserId: 'f-2',
      at: T0,
    }));
    const code = await shortCodes().assign('f-1');
    expect(code).toBe(shortCodeCandidate('f-1', 1));
    expect(await shortCodes().resolve(taken)).toBeNull();
  });

  it('takes up the reservation a stopped process left behind, which alone names no fundraiser', async () => {
    await createFundraiser('f-1');
    const code = shortCodeCandidate('f-1', 0);
    await commands.handle(shortCodeStreamName(code), shortCodeDecider, () => ({
      type: 'ReserveShortCode',
      code,
      fundraiserId: 'f-1',
      at: T0,
    }));
    expect(await shortCodes().resolve(code)).toBeNull();
    expect(await shortCodes().assign('f-1')).toBe(code);
    expect(await typesOf(shortCodeStreamName(code))).toEqual(['ShortCodeReserved']);
    expect(await shortCodes().resolve(code)).toBe('f-1');
  });

  it('refuses a fundraiser that does not exist, and reserves nothing for it', async () => {
    await expect(shortCodes().assign('nobody')).rejects.toMatchObject({ kind: 'not_found' });
    expect(await typesOf(shortCodeStreamName(shortCodeCandidate('nobody', 0)))).toEqual([]);
  });

  it('names the fundraiser of a code in any case, from the read model or, while it lags, from the log', async () => {
    await createFundraiser('f-1');
    const code = await shortCodes().assign('f-1');
    expect(await shortCodes().resolve(code.toUpperCase())).toBe('f-1');
    projected.set('abcd2345', 'f-9');
    expect(await shortCodes().resolve('ABCD2345')).toBe('f-9');
    for (const input of ['zzzz2345', 'not a code', '<script>"', ''])
      expect(await shortCodes().resolve(input)).toBeNull();
  });
});
