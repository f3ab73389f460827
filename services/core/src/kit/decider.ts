/**
 * A decider in the Emmett sense: pure functions, no I/O. `decide` answers a command with the
 * events it causes (or throws a DomainError); `evolve` folds events into state.
 * Facts from other aggregates (does the charity exist?) arrive inside the command, loaded by
 * the caller, so deciders stay pure.
 */
export interface Decider<Command, Event, State> {
  initialState(this: void): State;
  decide(this: void, command: Command, state: State): Event[];
  evolve(this: void, state: State, event: Event): State;
}

/** `gone`: what the request names existed but no longer works (an expired link). */
export type DomainErrorKind = 'validation' | 'not_found' | 'conflict' | 'forbidden' | 'gone';

/** A rule the command broke; the gateway maps the kind to 400, 404, 409, 403 or 410. */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
