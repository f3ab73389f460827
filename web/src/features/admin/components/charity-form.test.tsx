import type { AdminCharity, AdminCharityDetails } from '@qrshirt/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { cacheEntryKeys, cacheKeys, setCached } from '@/lib/cache';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { CharityForm } from './charity-form';

const bees: AdminCharityDetails = {
  id: 'bees',
  name: 'Bees Please',
  mission: 'Keeps bees.',
  website_url: 'https://bees.example.org',
};

/** The admins' list of charities in the shop, as GET /api/admin/charities?status=approved answers it. */
const listed = (...charities: AdminCharityDetails[]) => ({
  json: {
    charities: charities.map((charity): AdminCharity => ({
      ...charity,
      status: 'approved',
      createdBy: 'admin-1',
      createdAt: null,
    })),
  },
});

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

  it("finishes once the admins' list and the shop show the new charity, and the cached charity lists are gone", async () => {
    let listAsked = 0;
    const server = fakeApi({
      'POST /api/admin/charities': { status: 201, json: bees },
      // The catalogue projection has not caught up on the first question.
      'GET /api/admin/charities': () => (++listAsked === 1 ? listed() : listed(bees)),
      'GET /api/charity/bees': { json: { ...bees, status: 'approved' } },
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
    expect(listAsked).toBe(2);
    expect(server.to('GET', '/api/admin/charities')[0]!.search).toBe('?status=approved');
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
      'GET /api/admin/charities': listed({ ...bees, mission: 'Keeps more bees.' }),
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

  it("gives the legal name and tax id of donors' receipts, and shows the server's refusal of a tax id", async () => {
    const withReceipts = { ...bees, legalName: 'Bees Please Foundation, Inc.', taxId: '12-3456789' };
    const server = fakeApi({
      'PUT /api/admin/charities/bees': (request) =>
        (request.body as { taxId?: string }).taxId === '123456789'
          ? {
              status: 400,
              json: {
                error: 'Tax id must be a US EIN: 2 digits, a dash and 7 digits, like 12-3456789',
                fields: { taxId: 'Tax id must be a US EIN: 2 digits, a dash and 7 digits, like 12-3456789' },
              },
            }
          : { json: { ...withReceipts, ...(request.body as object) } },
      'GET /api/admin/charities': listed({ ...withReceipts, taxId: '98-7654321' }),
      'GET /api/charity/bees': { json: { ...bees, status: 'approved' } },
    });
    signInAs({ uid: 'admin-1' });
    const onSaved = vi.fn();
    const { user } = renderRoute(<CharityForm charity={withReceipts} onSaved={onSaved} />);

    expect(screen.getByLabelText<HTMLInputElement>('Legal name').value).toBe('Bees Please Foundation, Inc.');
    const taxId = screen.getByLabelText<HTMLInputElement>('Tax id (EIN)');
    expect(taxId.value).toBe('12-3456789');
    await user.clear(taxId);
    await user.type(taxId, '123456789');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(taxId.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(taxId)).toContain('Tax id must be a US EIN: 2 digits, a dash and 7 digits, like 12-3456789');

    await user.clear(taxId);
    await user.type(taxId, '98-7654321');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith({ ...withReceipts, taxId: '98-7654321' }));
    expect(server.to('PUT', '/api/admin/charities/bees').at(-1)!.body).toEqual({ taxId: '98-7654321' });
  });
});
