import { adminAuditProjector } from './admin-audit';
import { catalogProjector } from './catalog';
import { fundraisersProjector, type Projector } from '@qrshirt/core';
import { funnelProjector } from './funnel';
import { overviewProjector } from './overview';
import { usersProjector } from './users';
import { waitlistProjector } from './waitlist';

export * from './admin-audit';
export * from './catalog';
export * from './funnel';
export * from './overview';
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
