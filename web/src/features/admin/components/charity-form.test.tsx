import type { Charity } from '@qrshirt/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { cacheEntryKeys, cacheKeys, setCached } from '@/lib/cache';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { CharityForm } from './charity-form';

const bees: Charity = {
  id: 'bees',
  name: 'Bees Please',
  mission: 'Keeps bees.',
  website_url: 'https://bees.example.org',
};

/** The texts the input points at with aria-describedby: its description and its error. */
function describedBy(input: HTMLElement): string {
  return (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('the admin charity form', () => {
  it("shows each problem of the server's 400 under its own field", async () => {
    fakeApi({
      'POST /api/admin/charities': {
        status: 400,
        json: {
          error: 'Name is required',
          fields: { name: 'Name is required', website_url: 'Website must be a full address, like https://example.org' },
        },
      },
    });
    signInAs({ uid: 'admin-1' });
    const { user } = renderRoute(<CharityForm onSaved={() => {}} />);

    await user.type(screen.getByLabelText('Mission'), 'Keeps bees.');
    await user.type(screen.getByLabelText('Website'), 'bees');
    await user.click(screen.getByRole('button', { name: 'Create charity' }));

    const name = screen.getByLabelText('Name');
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(name)).toContain('Name is required');
    expect(describedBy(screen.getByLabelText('Website'))).toContain(
      'Website must be a full address, like https://example.org',
    );
    expect(screen.getByLabelText('Mission').getAttribute('aria-invalid')).not.toBe('true');
    expect(screen.getByText('Please correct the fields marked below.')).toBeTruthy();
  });

  it('finishes once the shop answers with the new charity, and the cached charity lists are gone', async () => {
    let shopAsked = 0;
    const server = fakeApi({
      'POST /api/admin/charities': { status: 201, json: bees },
      // The catalogue projection has not caught up on the first question.
      'GET /api/charity/bees': () =>
        ++shopAsked === 1 ? { status: 404, json: { error: 'Charity not found' } } : { json: bees },
    });
    signInAs({ uid: 'admin-1' });
    setCached(cacheKeys.charities, [], 60_000);
    setCached(cacheKeys.charity('ocean'), { id: 'ocean' }, 60_000);
    const onSaved = vi.fn();
    const { user } = renderRoute(<CharityForm onSaved={onSaved} />);

    await user.type(screen.getByLabelText('Name'), bees.name);
    await user.type(screen.getByLabelText('Mission'), bees.mission);
    await user.type(screen.getByLabelText('Website'), bees.website_url);
    await user.click(screen.getByRole('button', { name: 'Create charity' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(bees));
    expect(shopAsked).toBe(2);
    expect(server.to('POST', '/api/admin/charities')[0]!.body).toEqual({
      name: bees.name,
      mission: bees.mission,
      website_url: bees.website_url,
    });
    expect(cacheEntryKeys()).toEqual([]);
  });

  it('sends only the fields that changed, and nothing when none did', async () => {
    const server = fakeApi({
      'PUT /api/admin/charities/bees': (request) => ({ json: { ...bees, ...(request.body as object) } }),
      'GET /api/charity/bees': { json: { ...bees, mission: 'Keeps more bees.' } },
    });
    signInAs({ uid: 'admin-1' });
    const onSaved = vi.fn();
    const { user } = renderRoute(<CharityForm charity={bees} onSaved={onSaved} />);

    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByRole('status').textContent).toBe('Nothing changed.');
    expect(server.to('PUT', '/api/admin/charities/bees')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Mission'));
    await user.type(screen.getByLabelText('Mission'), 'Keeps more bees.');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(server.to('PUT', '/api/admin/charities/bees')[0]!.body).toEqual({ mission: 'Keeps more bees.' });
  });
});
