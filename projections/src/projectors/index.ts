import { adminAuditProjector } from './admin-audit';
import { catalogProjector } from './catalog';
import { fundraisersProjector } from './fundraisers';
import { funnelProjector } from './funnel';
import { overviewProjector } from './overview';
import type { Projector } from './projector';
import { usersProjector } from './users';
import { waitlistProjector } from './waitlist';

export * from './admin-audit';
export * from './catalog';
export * from './donation-money';
export * from './fundraisers';
export * from './funnel';
export * from './hash-fields';
export * from './overview';
export * from './projector';
export * from './users';
export * from './waitlist';

export const allProjectors: readonly Projector[] = [
  catalogProjector,
  fundraisersProjector,
  usersProjector,
  waitlistProjector,
  overviewProjector,
  funnelProjector,
  adminAuditProjector,
];
