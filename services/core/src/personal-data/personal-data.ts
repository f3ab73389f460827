import { personalDataFields, personalDataSubject } from '@qrshirt/contracts';
import { DomainError } from '../kit/decider';
import type { ErasureAct, PersonalDataKeys } from '../ports/personal-data-keys';
import { newPersonalDataKey, openValue, sealValue, sealedSubject } from './sealed-value';

/**
 * The one place personal data is sealed and opened. Events that hold a person's name or email
 * (`personalDataFields`) are stored with those fields sealed under that person's key; every
 * reader that shows or uses them opens them here. Once the key is erased they read as null
 * everywhere at once: in the log, in its backups and in the read models, which only ever copy
 * the sealed values.
 */
export interface PersonalData {
  /** The event's data with its personal fields sealed; other events' data as it is. */
  sealEventData(type: string, data: unknown): Promise<unknown>;
  /**
   * The values opened: sealed ones in clear, or null when their person was erased; anything else
   * (values stored before sealing, or not personal) as it is.
   */
  reveal<Value>(values: readonly Value[]): Promise<(Value | null)[]>;
  /** The events with their personal fields revealed. */
  revealEvents<Event extends { type: string; data: unknown }>(events: readonly Event[]): Promise<Event[]>;
  /** Destroys the subject's key, as part of `act` if given; false when it was erased already. */
  erase(subject: string, act?: ErasureAct): Promise<boolean>;
}

export function createPersonalData({ keys }: { keys: PersonalDataKeys }): PersonalData {
  const personalFields = (type: string): readonly string[] =>
    Object.keys((personalDataFields as Record<string, Readonly<Record<string, string>> | undefined>)[type] ?? {});

  async function reveal<Value>(values: readonly Value[]): Promise<(Value | null)[]> {
    const subjects = new Set<string>();
    for (const value of values) {
      const subject = sealedSubject(value);
      if (subject !== undefined) subjects.add(subject);
    }
    if (subjects.size === 0) return [...values];
    const found = await keys.personalDataKeys([...subjects]);
    return values.map((value) => {
      const subject = sealedSubject(value);
      if (subject === undefined) return value;
      const key = found.get(subject);
      return key ? (openValue(key, value as string) as Value) : null;
    });
  }

  return {
    async sealEventData(type, data) {
      const fields = personalFields(type).filter(
        (field) => typeof (data as Record<string, unknown>)[field] === 'string',
      );
      const subject = personalDataSubject(type, data);
      if (fields.length === 0 || subject === undefined) return data;
      const key = await keys.personalDataKey(subject, newPersonalDataKey());
      if (!key) throw new DomainError('gone', 'This person’s data has been erased');
      const sealed = { ...(data as Record<string, unknown>) };
      // Even a value shaped like a sealed one: the command side only ever holds values in clear, so
      // such a value came from someone's input, and stored as it is it would make reads fail.
      for (const field of fields) sealed[field] = sealValue(key, subject, sealed[field] as string);
      return sealed;
    },

    reveal,

    async revealEvents(events) {
      const slots: { event: number; field: string }[] = [];
      const values: unknown[] = [];
      events.forEach((event, index) => {
        for (const field of personalFields(event.type)) {
          const value = (event.data as Record<string, unknown> | null)?.[field];
          if (sealedSubject(value) === undefined) continue;
          slots.push({ event: index, field });
          values.push(value);
        }
      });
      if (slots.length === 0) return [...events];
      const opened = await reveal(values);
      const revealed = [...events];
      slots.forEach(({ event, field }, i) => {
        const current = revealed[event]!;
        revealed[event] = { ...current, data: { ...(current.data as Record<string, unknown>), [field]: opened[i] } };
      });
      return revealed;
    },

    erase: (subject, act) => keys.erasePersonalDataKey(subject, act),
  };
}
