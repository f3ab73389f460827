import {
  adminAuditProjector,
  catalogProjector,
  fundraisersProjector,
  funnelProjector,
  overviewProjector,
  type Projector,
  usersProjector,
  waitlistEntriesProjector,
  waitlistProjector,
} from '@qrshirt/core';

/** Every feature's projector: what each process that projects runs. */
export const allProjectors: readonly Projector[] = [
  catalogProjector,
  fundraisersProjector,
  usersProjector,
  waitlistProjector,
  overviewProjector,
  funnelProjector,
  adminAuditProjector,
  waitlistEntriesProjector,
];
