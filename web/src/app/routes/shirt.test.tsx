import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { ShirtRoute } from './shirt';

const shirt = {
  id: 'plot-twist',
  name: 'Plot Twist',
  description: 'You did not see this coming.',
  price: 32,
  sizes: ['S', 'M'],
  images: [
    { id: '1', url: '/images/1.svg', alt: 'Front', isMain: true },
    { id: '2', url: '/images/2.svg', alt: 'Back', isMain: false },
    { id: '3', url: '/images/3.svg', alt: 'Detail', isMain: false },
  ],
};
const charities = [
  { id: 'ocean', name: 'Ocean Friends', mission: 'Cleaner seas.', website_url: 'https://ocean.example' },
];

function renderShirt(id = 'plot-twist') {
  return renderRoute(<ShirtRoute />, { path: '/shirt/:shirtId', at: `/shirt/${id}` });
}

describe('the shirt page', () => {
  it('shows the shirt, its expected price, its features and the waitlist form', async () => {
    fakeApi({ 'GET /api/shirt/plot-twist': { json: shirt }, 'GET /api/charities': { json: charities } });
    renderShirt();
    expect(screen.getByText('Loading shirt details...')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Join the Waitlist' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Plot Twist' })).toBeTruthy();
    expect(screen.getByText('(expected price)')).toBeTruthy();
    expect(screen.getByText('$32.00')).toBeTruthy();
    expect(screen.getByText('Unisex sizing')).toBeTruthy();
    expect(screen.getByRole('link', { name: '← Back to Shop' }).getAttribute('href')).toBe('/shop');
    expect(await screen.findByText('1 available')).toBeTruthy();
    expect(screen.getByText('What Happens Next?')).toBeTruthy();
  });

  it('moves the carousel with its controls and thumbnails', async () => {
    fakeApi({ 'GET /api/shirt/plot-twist': { json: shirt }, 'GET /api/charities': { json: charities } });
    const { user } = renderShirt();
    const counter = await screen.findByTestId('carousel-counter');
    expect(counter.textContent).toBe('1 / 3');
    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(counter.textContent).toBe('2 / 3');
    await user.click(screen.getByRole('button', { name: 'Previous image' }));
    await user.click(screen.getByRole('button', { name: 'Previous image' }));
    expect(counter.textContent).toBe('3 / 3');
    await user.click(screen.getByRole('button', { name: /Show image 2/ }));
    expect(counter.textContent).toBe('2 / 3');
    expect(screen.getByRole('button', { name: /Show image 2/ }).getAttribute('aria-current')).toBe('true');
  });

  it('reports an unknown shirt as a failed load, in a toast too, and leads back to the shop', async () => {
    fakeApi({
      'GET /api/shirt/nope': { status: 404, json: { error: 'Shirt not found' } },
      'GET /api/charities': { json: charities },
    });
    renderShirt('nope');
    expect(await screen.findByText('Shirt Not Found')).toBeTruthy();
    expect(screen.getByText('Failed to load shirt. Please try again.')).toBeTruthy();
    const toast = (await screen.findByText('Error Loading Shirt')).closest('.mantine-Notification-root') as HTMLElement;
    expect(within(toast).getByText('Failed to load shirt data. Please refresh the page.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Shop' }).getAttribute('href')).toBe('/shop');
  });

  it('reports a failed load on the page and in a toast', async () => {
    fakeApi({
      'GET /api/shirt/plot-twist': { status: 500, json: { error: 'down' } },
      'GET /api/charities': { json: charities },
    });
    renderShirt();
    expect(await screen.findByText('Failed to load shirt. Please try again.')).toBeTruthy();
    const toast = (await screen.findByText('Error Loading Shirt')).closest('.mantine-Notification-root') as HTMLElement;
    expect(within(toast).getByText('Failed to load shirt data. Please refresh the page.')).toBeTruthy();
  });

  it('warns when the charities cannot be loaded', async () => {
    fakeApi({
      'GET /api/shirt/plot-twist': { json: shirt },
      'GET /api/charities': { status: 500, json: { error: 'down' } },
    });
    renderShirt();
    const toast = (await screen.findByText('Error Loading Charities')).closest(
      '.mantine-Notification-root',
    ) as HTMLElement;
    expect(within(toast).getByText('Failed to load charities. Some features may not work.')).toBeTruthy();
  });
});
