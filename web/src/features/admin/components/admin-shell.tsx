import { AppShell, Burger, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { adminPaths } from './admin-paths';
import classes from './admin-shell.module.css';

const sections = [
  { label: 'Overview', to: adminPaths.overview },
  { label: 'Funnel', to: adminPaths.funnel },
  { label: 'Charities', to: adminPaths.charities },
  { label: 'Shirts', to: adminPaths.shirts },
  { label: 'Waitlist', to: adminPaths.waitlist },
  { label: 'Projections', to: adminPaths.projections },
  { label: 'Event browser', to: adminPaths.events },
  { label: 'Replay export', to: adminPaths.replay },
  { label: 'Reconcile', to: adminPaths.reconcile },
  { label: 'Outbox', to: adminPaths.outbox },
  { label: 'Audit trail', to: adminPaths.audit },
  { label: 'Fundraiser figures', to: adminPaths.fundraisers },
] as const;

/**
 * The admin area's frame: a side navigation beside the page. It sits inside the site's own shell
 * (whose navigation bar stays on top), so it is a static AppShell laid out in the page's flow; on
 * phones the navigation folds behind a burger.
 */
export function AdminShell({ children }: { children: React.ReactNode }) {
  const [navOpen, nav] = useDisclosure(false);
  const { pathname } = useLocation();
  const closeNav = nav.close;
  // A section chosen on a phone closes the menu that chose it.
  useEffect(() => closeNav(), [pathname, closeNav]);

  return (
    <AppShell
      className={classes.shell}
      mode="static"
      padding="md"
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !navOpen } }}
    >
      <AppShell.Navbar p="xs" component="nav" aria-label="Admin sections">
        {sections.map((section) => (
          <NavLink
            key={section.to}
            component={Link}
            to={section.to}
            label={section.label}
            active={section.to === adminPaths.overview ? pathname === section.to : pathname.startsWith(section.to)}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Group hiddenFrom="sm" mb="md" gap="xs">
          <Burger
            opened={navOpen}
            onClick={nav.toggle}
            size="sm"
            aria-label={navOpen ? 'Close admin sections' : 'Open admin sections'}
          />
          <Text fw={600}>Admin sections</Text>
        </Group>
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
