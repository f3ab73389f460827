import type { Charity } from '@qrshirt/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render';
import { AboutCauseCard } from './about-cause-card';

const charity: Charity = {
  id: 'water',
  name: 'Clean Water',
  mission: 'Water for all.',
  website_url: 'https://water.example',
};

describe('About This Cause', () => {
  it("links to the charity's website", async () => {
    renderRoute(<AboutCauseCard charity={charity} />);
    const link = await screen.findByRole('link', { name: 'Learn more about Clean Water' });
    expect(link.getAttribute('href')).toBe('https://water.example');
  });

  it('links nowhere when an old log holds a website that is not a web address', async () => {
    renderRoute(<AboutCauseCard charity={{ ...charity, website_url: 'javascript:alert(document.cookie)' }} />);
    expect(await screen.findByText('Water for all.')).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
