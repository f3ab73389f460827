import type { PersonalDataKeys } from '../../src/index';

/** The port's behaviour as the credentials-store contract suite pins it, kept in a Map. */
export function keysInMemory(): PersonalDataKeys {
  const keys = new Map<string, Buffer | null>();
  return {
    async personalDataKey(subject, candidate) {
      if (!keys.has(subject)) keys.set(subject, candidate);
      return keys.get(subject) ?? null;
    },
    async personalDataKeys(subjects) {
      return new Map(subjects.flatMap((subject) => (keys.get(subject) ? [[subject, keys.get(subject)!]] : [])));
    },
    async erasePersonalDataKey(subject) {
      if (keys.has(subject) && keys.get(subject) === null) return false;
      keys.set(subject, null);
      return true;
    },
  };
}
