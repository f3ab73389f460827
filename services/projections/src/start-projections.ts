import type { EventStore, Projector, ReadModelStore } from '@qrshirt/core';
import type { ProjectionLog } from './apply-batch';
import type { ChangeFeed } from './change-feed/change-feed';
import { publishLiveChanges } from './change-feed/publish-live-changes';
import { createProjectionRunner, type ProjectionRunner } from './runner';

export interface StartProjectionsOptions {
  eventStore: EventStore;
  store: ReadModelStore;
  projectors: readonly Projector[];
  log: ProjectionLog;
  /** Live streams read this projector's figures: only its commits announce changes on `feed`. */
  live?: { projector: Projector; feed: ChangeFeed };
}

export interface StartedProjections {
  projections: { projector: Projector; runner: ProjectionRunner }[];
  runners: ProjectionRunner[];
  /** Each runner finishes the batch in hand: its ops and checkpoint are committed together. */
  stop(this: void): Promise<void>;
}

/**
 * One checkpointed runner per projector, each following the event store into `store`, started:
 * what every process that projects (the embedded gateway, the projector) does the same way.
 */
export function startProjections({
  eventStore,
  store,
  projectors,
  log,
  live,
}: StartProjectionsOptions): StartedProjections {
  const projections = projectors.map((projector) => ({
    projector,
    runner: createProjectionRunner({
      eventStore,
      store,
      projector,
      log,
      ...(projector === live?.projector && { onCommitted: publishLiveChanges(live.feed) }),
    }),
  }));
  const runners = projections.map(({ runner }) => runner);
  for (const runner of runners) runner.start();
  return {
    projections,
    runners,
    async stop() {
      await Promise.all(runners.map((runner) => runner.stop()));
    },
  };
}
