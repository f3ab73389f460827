import type { Decider } from './decider';

/** The state a decider reaches after `events`, starting from its initial state. */
export function foldEvents<Command, Event, State>(
  decider: Decider<Command, Event, State>,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState());
}
