import type { ApiRoutes, OperationId } from '@qrshirt/contracts';
import type { Projector } from './projector';
import type { FeatureHandler } from './route-handler';

/** Handlers for some operations of the route table, each typed by its route. */
export type SomeHandlers = { [Id in OperationId]?: FeatureHandler<ApiRoutes[Id]> };

/**
 * What every feature module brings to the composition root: the handlers of its JSON routes,
 * which the app mounts through the route table, and the projectors of its read models, which the
 * projection runner runs; and, for the gateway's handlers and other features, its use cases and
 * the queries of its read models.
 */
export interface FeatureModule {
  readonly name: string;
  readonly handlers: SomeHandlers;
  readonly projectors: readonly Projector[];
  readonly useCases?: object;
  readonly queries?: Readonly<Record<string, object>>;
}
