import { describe, expect, it } from 'vitest';
import {
  createInMemoryEventStore,
  createPersonalData,
  DomainError,
  type StoredEvent,
  withPersonalData,
} from '../../src/index';
import { keysInMemory } from './keys-in-memory';

const at = '2030-01-01T00:00:00.000Z';
const registered = (userId: string, email: string, displayName: string) => ({
  type: 'UserRegistered',
  data: { userId, email, displayName, photoURL: null, method: 'password', at },
});
const joined = (entryId: string, name: string, email: string) => ({
  type: 'WaitlistJoined',
  data: { entryId, shirtId: 's-1', name, email, size: 'M', charityId: 'c-1', at },
});

function setUp() {
  const raw = createInMemoryEventStore();
  const personalData = createPersonalData({ keys: keysInMemory() });
  return { raw, personalData, people: withPersonalData(raw, personalData) };
}

const dataOf = (events: StoredEvent[]) => events.map((event) => event.data as Record<string, unknown>);

describe('personal data sealed in the log', () => {
  it('stores names and emails sealed, and every read opens them', async () => {
    const { raw, people } = setUp();
    await people.appendToStream('user-u1', [registered('u1', 'ada@example.com', 'Ada Lovelace')]);
    await people.appendToStream('waitlist-s-1-e1', [joined('e1', 'Grace Hopper', 'grace@example.com')]);

    const log = JSON.stringify(await raw.readAll());
    for (const clear of ['ada@example.com', 'Ada Lovelace', 'Grace Hopper', 'grace@example.com'])
      expect(log).not.toContain(clear);
    expect(dataOf(await raw.readStream('user-u1'))[0]).toMatchObject({
      userId: 'u1',
      photoURL: null,
      method: 'password',
    });

    expect(dataOf(await people.readStream('user-u1'))[0]).toMatchObject({
      email: 'ada@example.com',
      displayName: 'Ada Lovelace',
    });
    expect((await people.readLastEvent('waitlist-s-1-e1'))?.data).toMatchObject({ name: 'Grace Hopper' });
    expect(dataOf(await people.readAll()).map((data) => data.email)).toEqual(['ada@example.com', 'grace@example.com']);
    expect(
      dataOf((await people.readFiltered({ streamPrefix: 'waitlist-', maxCount: 10 })).events).map((data) => data.name),
    ).toEqual(['Grace Hopper']);
    const heard: unknown[] = [];
    const subscription = people.subscribe({
      onEvents: (events) => void heard.push(...dataOf(events).map((d) => d.email)),
    });
    await expect.poll(() => heard).toEqual(['ada@example.com', 'grace@example.com']);
    await subscription.stop();
  });

  it('reads an erased person as null everywhere, and keeps the others', async () => {
    const { raw, personalData, people } = setUp();
    await people.appendToStream('user-u1', [registered('u1', 'ada@example.com', 'Ada')]);
    await people.appendToStream('user-u2', [registered('u2', 'bo@example.com', 'Bo')]);
    const sealedName = dataOf(await raw.readStream('user-u1'))[0]!.displayName;

    expect(await personalData.erase('user-u1')).toBe(true);
    expect(await personalData.erase('user-u1')).toBe(false);

    expect(dataOf(await people.readAll())).toMatchObject([
      { userId: 'u1', email: null, displayName: null },
      { userId: 'u2', email: 'bo@example.com', displayName: 'Bo' },
    ]);
    // A read model's copy of the sealed value goes with the key too.
    expect(await personalData.reveal([sealedName, 'not personal', null])).toEqual([null, 'not personal', null]);
    await expect(
      people.appendToStream('user-u1', [
        { type: 'UserProfileUpdated', data: { userId: 'u1', displayName: 'Ada again', at } },
      ]),
    ).rejects.toThrow(DomainError);
    expect(await raw.readStream('user-u1')).toHaveLength(1);
  });

  it('seals input shaped like a sealed value, which then reads back as it was typed', async () => {
    const { raw, people } = setUp();
    await people.appendToStream('user-u1', [registered('u1', 'ada@example.com', 'Ada')]);
    const forged = (dataOf(await raw.readStream('user-u1'))[0]!.email as string).replace('user-u1', 'user-u9');
    await people.appendToStream('waitlist-s-1-e2', [joined('e2', forged, 'x@example.com')]);
    expect((await people.readLastEvent('waitlist-s-1-e2'))?.data).toMatchObject({ name: forged });
  });

  it('passes values stored before sealing through as they are', async () => {
    const { raw, people } = setUp();
    await raw.appendToStream('user-u1', [registered('u1', 'old@example.com', 'Old')]);
    expect(dataOf(await people.readStream('user-u1'))[0]).toMatchObject({
      email: 'old@example.com',
      displayName: 'Old',
    });
  });

  it('refuses a sealed value that was altered or moved to another person', async () => {
    const { raw, personalData, people } = setUp();
    await people.appendToStream('user-u1', [registered('u1', 'ada@example.com', 'Ada')]);
    await people.appendToStream('user-u2', [registered('u2', 'bo@example.com', 'Bo')]);
    const sealed = dataOf(await raw.readStream('user-u1'))[0]!.email as string;
    const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.slice(-1)}`;
    await expect(personalData.reveal([flipped])).rejects.toThrow();
    await expect(personalData.reveal([sealed.replace('user-u1', 'user-u2')])).rejects.toThrow();
  });
});
