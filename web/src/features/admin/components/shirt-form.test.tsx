import type { Shirt } from '@qrshirt/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { cacheEntryKeys, cacheKeys, setCached } from '@/lib/cache';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { ShirtForm } from './shirt-form';

const tee: Shirt = {
  id: 'plain-tee',
  name: 'Plain Tee',
  description: 'Nothing printed, nothing to scan.',
  price: 20,
  sizes: ['S', 'M'],
  tags: ['basic'],
  images: [{ id: 'front', url: '/images/front.svg', alt: 'Front', isMain: true }],
};

function describedBy(input: HTMLElement): string {
  return (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('the admin shirt form', () => {
  it("shows the server's problems beside the price, the sizes and the image row they concern", async () => {
    const server = fakeApi({
      'POST /api/admin/shirts': {
        status: 400,
        json: {
          error: 'Price must be a number',
          fields: {
            price: 'Price must be a number',
            'sizes.1': 'Size must be at most 32 characters',
            'images.1.url': 'Image address must start with https://, http:// or /',
          },
        },
      },
    });
    signInAs({ uid: 'admin-1' });
    const { user } = renderRoute(<ShirtForm onSaved={() => {}} />);

    await user.type(screen.getByLabelText('Name'), 'Tee');
    await user.type(screen.getByRole('combobox', { name: 'Sizes' }), 'M{Enter}XXXL{Enter}');
    await user.type(screen.getByLabelText('Image 1 address'), '/f.svg');
    await user.click(screen.getByRole('button', { name: 'Add image' }));
    await user.type(screen.getByLabelText('Image 2 address'), 'ftp://x');
    await user.click(screen.getByRole('button', { name: 'Add shirt' }));

    const price = screen.getByLabelText('Price');
    await waitFor(() => expect(describedBy(price)).toContain('Price must be a number'));
    expect(describedBy(screen.getByRole('combobox', { name: 'Sizes' }))).toContain(
      'Size must be at most 32 characters',
    );
    expect(describedBy(screen.getByLabelText('Image 2 address'))).toContain(
      'Image address must start with https://, http:// or /',
    );
    expect(screen.getByLabelText('Image 1 address').getAttribute('aria-invalid')).not.toBe('true');
    // An empty price is not sent as 0: the server says it is missing.
    const sent = server.to('POST', '/api/admin/shirts')[0]!.body as Record<string, unknown>;
    expect(sent).not.toHaveProperty('price');
    expect(sent.sizes).toEqual(['M', 'XXXL']);
    expect((sent.images as { url: string; isMain: boolean }[]).map(({ url, isMain }) => ({ url, isMain }))).toEqual([
      { url: '/f.svg', isMain: true },
      { url: 'ftp://x', isMain: false },
    ]);
  });

  it('saves a changed price and clears the cached shirt lists once the shop shows it', async () => {
    const server = fakeApi({
      'PUT /api/admin/shirts/plain-tee': { json: { ...tee, price: 24.5 } },
      'GET /api/shirt/plain-tee': { json: { ...tee, price: 24.5 } },
    });
    signInAs({ uid: 'admin-1' });
    setCached(cacheKeys.shirts, [tee], 60_000);
    setCached(cacheKeys.shirt(tee.id), tee, 60_000);
    const onSaved = vi.fn();
    const { user } = renderRoute(<ShirtForm shirt={tee} onSaved={onSaved} />);

    await user.clear(screen.getByLabelText('Price'));
    await user.type(screen.getByLabelText('Price'), '24.5');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith({ ...tee, price: 24.5 }));
    expect(server.to('PUT', '/api/admin/shirts/plain-tee')[0]!.body).toEqual({ price: 24.5 });
    expect(cacheEntryKeys()).toEqual([]);
  });
});
