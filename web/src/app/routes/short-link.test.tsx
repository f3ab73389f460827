import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render';
import { tapTryAgain } from '@/testing/try-again';
import { ShortLinkRoute } from './short-link';

describe('a short link the gateway did not know', () => {
  it("shows the QR landing's Fundraiser not found, and Try Again asks the gateway again", async () => {
    const { user } = renderRoute(<ShortLinkRoute />, { path: '/q/:code', at: '/q/zzzz2345' });
    expect(screen.getByText('Fundraiser not found')).toBeTruthy();
    expect(await tapTryAgain(user)).toBe('/q/zzzz2345');
  });
});
