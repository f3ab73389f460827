import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/testing/render';
import { ShortLinkRoute } from './short-link';

describe('a short link the gateway did not know', () => {
  afterEach(() => vi.restoreAllMocks());

  it("shows the QR landing's Fundraiser not found, and Try Again asks the gateway again", async () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    const { user } = renderRoute(<ShortLinkRoute />, { path: '/q/:code', at: '/q/zzzz2345' });
    expect(screen.getByText('Fundraiser not found')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(reload).toHaveBeenCalledOnce();
  });
});
