import type { Shirt } from '@qrshirt/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { ShopRoute } from './shop';

const shirt = (id: string, extra: Partial<Shirt> = {}): Shirt => ({
  id,
  name: `Shirt ${id}`,
  description: 'Funny.',
  price: 29.99,
  sizes: ['XS', 'S', 'M', 'L', 'XL'],
  tags: ['pop', 'music', 'retro'],
  category: 'Classics',
  images: [
    { id: 'a', url: `/images/${id}-1.svg`, alt: `${id} front`, isMain: false },
    { id: 'b', url: `/images/${id}-2.svg`, alt: `${id} back`, isMain: true },
  ],
  ...extra,
});

function renderShop() {
  return renderRoute(<ShopRoute />, {
    path: '/shop',
    at: '/shop',
    routes: [{ path: '/shirt/:id', element: <p>Shirt detail</p> }],
  });
}

describe('the shop', () => {
  it('shows each shirt with its main picture, badges, 3 sizes and 2 tags at most', async () => {
    fakeApi({
      'GET /api/shirts': { json: [shirt('one'), shirt('two', { category: undefined, tags: undefined, sizes: ['M'] })] },
    });
    renderShop();
    expect(screen.getByText('Loading shirts...')).toBeTruthy();
    const [one, two] = await screen.findAllByTestId('shirt-card');
    const card = within(one!);
    const picture = card.getByRole('img', { name: 'one back' });
    // The first card's picture is the largest paint: fetched at once; the others when scrolled to.
    expect(picture.getAttribute('loading')).toBe('eager');
    expect(picture.getAttribute('fetchpriority')).toBe('high');
    expect(within(two!).getByRole('img').getAttribute('loading')).toBe('lazy');
    expect(card.getByText('Classics')).toBeTruthy();
    expect(card.getByText('$29.99')).toBeTruthy();
    expect(within(card.getByLabelText('Sizes')).getAllByText(/^(XS|S|M|\+2)$/)).toHaveLength(4);
    expect(card.getByText('5 sizes')).toBeTruthy();
    expect(within(card.getByLabelText('Tags')).getAllByText(/^(pop|music|\+1)$/)).toHaveLength(3);
    expect(within(two!).queryByLabelText('Tags')).toBeNull();
    expect(within(two!).getByText('1 size')).toBeTruthy();
    expect(screen.getByText('Ready to Make an Impact?')).toBeTruthy();
  });

  it('opens a shirt from its card and records the click', async () => {
    const api = fakeApi({ 'GET /api/shirts': { json: [shirt('one')] } });
    const { user, router } = renderShop();
    const card = await screen.findByTestId('shirt-card');
    // The name's link covers the card, so a tap anywhere on it lands here (a browser test taps the
    // card's body: this page has no layout).
    await user.click(within(card).getByRole('link', { name: 'Shirt one' }));
    expect(await screen.findByText('Shirt detail')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/shirt/one');
    await waitFor(() => expect(api.to('POST', '/api/analytics')).toHaveLength(1));
    expect(api.to('POST', '/api/analytics')[0]!.body).toEqual({
      events: [{ type: 'shirt_clicked', shirt_id: 'one', shirt_name: 'Shirt one' }],
    });
  });

  it('has its name, View Details and Join Waitlist as links to the shirt, which work before the page is live', async () => {
    fakeApi({ 'GET /api/shirts': { json: [shirt('one')] } });
    renderShop();
    const card = within(await screen.findByTestId('shirt-card'));
    for (const name of ['Shirt one', 'View Details', 'Join Waitlist']) {
      expect(card.getByRole('link', { name }).dataset).toMatchObject({ shirtId: 'one', shirtName: 'Shirt one' });
    }
    expect(card.getByRole('link', { name: 'Shirt one' }).getAttribute('href')).toBe('/shirt/one');
    expect(card.getByRole('link', { name: 'View Details' }).getAttribute('href')).toBe('/shirt/one');
    expect(card.getByRole('link', { name: 'Join Waitlist' }).getAttribute('href')).toBe('/shirt/one');
  });

  it('says so when there are no shirts', async () => {
    fakeApi({ 'GET /api/shirts': { json: [] } });
    renderShop();
    expect(await screen.findByText('No Shirts Available')).toBeTruthy();
    expect(screen.getByText('No shirts are currently available. Please check back later!')).toBeTruthy();
  });

  it('shows the error with a toast, and loads again on Try Again', async () => {
    let calls = 0;
    fakeApi({
      'GET /api/shirts': () => (++calls === 1 ? { status: 503, json: { error: 'down' } } : { json: [shirt('one')] }),
    });
    const { user } = renderShop();
    expect(await screen.findByText('Failed to load shirts. Please try again.')).toBeTruthy();
    expect(screen.getAllByText('Error Loading Shirts')).toHaveLength(2);
    expect(screen.getByText('Failed to load shirts. Please refresh the page.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId('shirt-card')).toBeTruthy();
  });

  it('serves the list from the local cache on the next visit', async () => {
    const api = fakeApi({ 'GET /api/shirts': { json: [shirt('one')] } });
    const first = renderShop();
    await screen.findByTestId('shirt-card');
    first.unmount();
    renderShop();
    await screen.findByTestId('shirt-card');
    await waitFor(() => expect(api.to('GET', '/api/shirts')).toHaveLength(1));
  });
});
