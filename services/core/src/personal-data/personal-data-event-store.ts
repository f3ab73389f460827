import type { EventStore } from '../kit/event-store';
import type { PersonalData } from './personal-data';

/**
 * The event store as the command side and the people-facing readers see it: personal fields are
 * sealed on the way in and opened on the way out (null once erased). Projectors read the store
 * underneath, so read models only ever hold sealed values, which their queries open.
 */
export function withPersonalData(store: EventStore, personalData: PersonalData): EventStore {
  return {
    positionUnit: store.positionUnit,
    async appendToStream(streamName, events, options) {
      const sealed = await Promise.all(
        events.map(async (event) => ({ ...event, data: await personalData.sealEventData(event.type, event.data) })),
      );
      return store.appendToStream(streamName, sealed, options);
    },
    readStream: async (streamName, options) => personalData.revealEvents(await store.readStream(streamName, options)),
    async readLastEvent(streamName) {
      const last = await store.readLastEvent(streamName);
      return last && (await personalData.revealEvents([last]))[0];
    },
    readAll: async (options) => personalData.revealEvents(await store.readAll(options)),
    async readFiltered(options) {
      const page = await store.readFiltered(options);
      return { ...page, events: await personalData.revealEvents(page.events) };
    },
    subscribe: (options) =>
      store.subscribe({
        ...options,
        onEvents: async (events) => options.onEvents(await personalData.revealEvents(events)),
      }),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
}
