import { expect } from 'vitest';
import { type Decider, DomainError, type DomainErrorKind } from '../../src/kit/decider';
import { foldEvents } from '../../src/kit/fold-events';

/** Given past events, when a command is decided, then these events (or this DomainError). */
export function deciderSpec<Command, Event, State>(decider: Decider<Command, Event, State>) {
  return {
    given: (history: readonly Event[]) => ({
      when: (command: Command) => {
        const decide = () => decider.decide(command, foldEvents(decider, history));
        return {
          then(expected: readonly Event[]): void {
            expect(decide()).toEqual(expected);
          },
          thenFails(kind: DomainErrorKind, message: string): void {
            let failure: unknown;
            try {
              decide();
            } catch (error) {
              failure = error;
            }
            expect(failure).toBeInstanceOf(DomainError);
            expect(failure).toMatchObject({ kind, message });
          },
        };
      },
    }),
  };
}
