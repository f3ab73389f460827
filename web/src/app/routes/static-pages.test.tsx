import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { env } from '@/config/env';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { NotFoundRoute } from './not-found';
import { PrivacyRoute } from './privacy';

describe('the privacy policy', () => {
  it('has the 14 numbered sections, today as its date and the configured contact email', () => {
    fakeApi({});
    renderRoute(<PrivacyRoute />);
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings).toEqual([
      '1. Introduction',
      '2. Information We Collect',
      '3. How We Use Your Information',
      '4. How We Share Information',
      '5. Data Security',
      '6. Data Retention',
      '7. Your Rights',
      '8. Cookies and Local Storage',
      "9. Children's Privacy",
      '10. International Data Transfers',
      '11. Third-Party Links',
      '12. Changes to This Policy',
      '13. Contact Us',
      '14. State-Specific Privacy Rights',
    ]);
    const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
    expect(screen.getByText(`Last updated: ${today}`)).toBeTruthy();
    expect(screen.getAllByRole('link', { name: env.VITE_CONTACT_EMAIL })[0]!.getAttribute('href')).toBe(
      `mailto:${env.VITE_CONTACT_EMAIL}`,
    );
    expect(screen.getByText(/kept for 7 years/)).toBeTruthy();
    expect(screen.getByText(/kept for 90 days/)).toBeTruthy();
    expect(screen.getByText(/within 30 days/)).toBeTruthy();
    expect(screen.getByText(/children under 13/)).toBeTruthy();
  });
});

describe('the page not found', () => {
  it('says so, leads home, suggests scanning and logs the path (as a warning)', () => {
    fakeApi({});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderRoute(<NotFoundRoute />, { at: '/no/such/page' });
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go Home' }).getAttribute('href')).toBe('/');
    expect(screen.getByText(/Scan the QR code/)).toBeTruthy();
    expect(warn).toHaveBeenCalledWith('Page not found:', '/no/such/page');
    warn.mockRestore();
  });
});
