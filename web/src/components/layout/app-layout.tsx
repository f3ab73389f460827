import { Anchor, AppShell, Burger, Container, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { trackPageView } from '@/lib/analytics';
import { analyticsLive } from '@/lib/analytics-live';
import { CacheStatusPanel } from '../cache-status-panel';
import { AccountLinks, type ExtraLinks } from './nav-links';
import classes from './app-layout.module.css';
import { Footer } from './footer';

/**
 * Every page: the navigation bar (a burger menu on phones), the page, the footer. `extraLinks`:
 * what the app adds to a signed-in user's links (features are composed by the app, not here).
 */
export function AppLayout({ extraLinks }: { extraLinks?: ExtraLinks } = {}) {
  const [menuOpen, menu] = useDisclosure(false);
  const { pathname } = useLocation();

  const closeMenu = menu.close;
  const shownPath = useRef<string | undefined>(undefined);
  // Spec section 2: each navigation starts at the top of the new page, and counts as a page view.
  // A page the browser loaded whole starts where the browser put it: on a server-rendered page,
  // the visitor may have scrolled (and tapped) before it became live, and a jump to the top then
  // moved what they were tapping. The QR landing's own script records its view before its layout
  // comes (app/server-pages/landing-script.ts): the layout then records none of its own.
  useEffect(() => {
    const first = shownPath.current === undefined;
    if (!first && shownPath.current !== pathname) window.scrollTo(0, 0);
    shownPath.current = pathname;
    closeMenu();
    if (!(first && analyticsLive())) trackPageView(pathname, document.title);
  }, [pathname, closeMenu]);

  return (
    <AppShell
      className={classes.shell}
      header={{ height: 64 }}
      navbar={{ width: 280, breakpoint: 'sm', collapsed: { desktop: true, mobile: !menuOpen } }}
    >
      <AppShell.Header>
        <Container size="xl" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Group gap="lg" wrap="nowrap">
              <Anchor component={Link} to={paths.home} fw={800} fz="lg" c="blue.9" underline="never">
                QR Shirts
              </Anchor>
              <Anchor component={Link} to={paths.shop} c="dark" visibleFrom="sm">
                Shop
              </Anchor>
            </Group>
            <Group gap="sm" visibleFrom="sm" wrap="nowrap">
              <AccountLinks extraLinks={extraLinks} />
            </Group>
            <Burger
              opened={menuOpen}
              onClick={menu.toggle}
              hiddenFrom="sm"
              data-menu-button
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            />
          </Group>
        </Container>
      </AppShell.Header>
      <AppShell.Navbar p="md" aria-label="Mobile menu">
        {/* Only while open: a collapsed menu slides off screen, and its links must not stay
            reachable by Tab or read twice by screen readers. */}
        {menuOpen && (
          <Stack gap="sm">
            <Anchor component={Link} to={paths.shop} c="dark" onClick={menu.close}>
              Shop
            </Anchor>
            <AccountLinks extraLinks={extraLinks} onNavigate={menu.close} />
          </Stack>
        )}
      </AppShell.Navbar>
      <AppShell.Main>
        <div className={classes.page}>
          <Outlet />
        </div>
        <Footer />
        <CacheStatusPanel />
      </AppShell.Main>
    </AppShell>
  );
}
