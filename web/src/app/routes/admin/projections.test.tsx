import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminProjections } from '@qrshirt/contracts';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { AdminProjectionsRoute } from './projections';

function projections(positionUnit: AdminProjections['positionUnit'], lagEvents: number | null): AdminProjections {
  return {
    headPosition: 48_210,
    positionUnit,
    projections: [
      {
        name: 'fundraisers',
        state: 'catching-up',
        activeVersion: 1,
        checkpoint: 40_000,
        lagEvents,
        lagSeconds: 2.5,
        lastError: null,
        rebuild: null,
      },
    ],
  };
}

describe('the projections screen', () => {
  it('counts events where the log is numbered in events', async () => {
    fakeApi({ 'GET /api/admin/projections': { json: projections('events', 8_210) } });
    signInAs({ uid: 'boss', displayName: 'Olga' });
    renderRoute(<AdminProjectionsRoute />);
    expect(await screen.findByText(/The event log holds 48,210 events/)).toBeTruthy();
    expect(within(screen.getByTestId('projection-fundraisers')).getByText('8,210')).toBeTruthy();
  });

  it('says events behind are not counted where the log is numbered in bytes (EventStoreDB)', async () => {
    fakeApi({ 'GET /api/admin/projections': { json: projections('bytes', null) } });
    signInAs({ uid: 'boss', displayName: 'Olga' });
    renderRoute(<AdminProjectionsRoute />);
    expect(await screen.findByText(/ends at byte 48,210.*lag shows in seconds only/)).toBeTruthy();
    expect(screen.queryByText(/holds .* events/)).toBeNull();
    expect(within(screen.getByTestId('projection-fundraisers')).getByText('not counted')).toBeTruthy();
  });
});
