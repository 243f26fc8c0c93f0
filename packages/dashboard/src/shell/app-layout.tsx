import { Anchor, AppShell, Box, Burger, Center, Group, Loader, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useEffect } from 'react';
import { Link, Outlet, useLocation, useMatches } from 'react-router';
import { readActing } from '../auth/acting';
import { ADMIN_ROLES, hasRole, STAFF_ROLES, useSession } from '../auth/use-session';
import { CreditCounter } from '../credits/credit-counter';
import { useOwnRole } from '../data/account';
import { useDncLists } from '../data/service';
import { AccountMenu } from './account-menu';
import { ActingBanner } from './acting-banner';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { Footer } from './footer';
import { CompactVisitorLinks, HeaderLinks } from './header-links';
import type { RouteHandle } from './route-handle';
import { Sidebar } from './sidebar';
import { Toasts } from './toasts';

// Admins only: loaded when shown, so the first screen's script stays within its budget.
const DncAgeBanner = lazy(() =>
  import('./dnc-age-banner').then((module) => ({ default: module.DncAgeBanner })),
);

function useRouteHandle(): RouteHandle {
  const matches = useMatches();
  return Object.assign({}, ...matches.map((match) => (match.handle ?? {}) as RouteHandle));
}

/** Scrolls to `#anchor` targets (Pricing, How It Works) and to the top on other navigations. */
function useScrollOnNavigate() {
  const { pathname, hash } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new pathname is the trigger, not an input
  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [pathname, hash]);
}

const pageLoader = (
  <Center py="xl">
    <Loader aria-label="Loading page" />
  </Center>
);

/** The shell around every screen: header, sidebar when signed in, footer. */
export function AppLayout() {
  const handle = useRouteHandle();
  const session = useSession();
  const [opened, { toggle, close }] = useDisclosure(false);
  useScrollOnNavigate();
  const signedIn = Boolean(session.data) && !handle.bare;
  const showNavbar = signedIn;
  const role = useOwnRole().data;
  const acting = session.data ? readActing() : null;
  // The ADMIN link needs an admin's own token: not while acting as a user, who sees their own sidebar.
  const admin = !acting && hasRole(role, ADMIN_ROLES);
  const staff = !acting && hasRole(role, STAFF_ROLES);
  // The lists' age is the operator's business: asked for and shown to admins only.
  const dncLists = useDncLists({ enabled: admin }).data;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={showNavbar ? { width: 230, breakpoint: 'md', collapsed: { mobile: !opened } } : undefined}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {showNavbar && (
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="md"
                size="sm"
                aria-label="Toggle navigation"
              />
            )}
            <Anchor
              component={Link}
              to={session.data ? '/accountInfo' : '/'}
              fw={800}
              size="xl"
              underline="never"
            >
              Scrub
            </Anchor>
          </Group>
          {!handle.bare && (
            <Group gap="md" wrap="nowrap">
              <Group visibleFrom="md">
                <HeaderLinks signedIn={Boolean(session.data)} admin={admin} />
              </Group>
              {!session.data && (
                <Group hiddenFrom="md" gap="xs" data-testid="compact-visitor-links">
                  <CompactVisitorLinks />
                </Group>
              )}
              <ColorSchemeToggle />
              {session.data && <CreditCounter />}
              {session.data && <AccountMenu session={session.data} />}
            </Group>
          )}
        </Group>
      </AppShell.Header>
      {showNavbar && session.data && (
        <AppShell.Navbar p="md" aria-label="Sidebar">
          <ScrollArea>
            <Sidebar session={session.data} admin={admin} staff={staff} onNavigate={close} />
          </ScrollArea>
        </AppShell.Navbar>
      )}
      <AppShell.Main>
        {acting && <ActingBanner acting={acting} />}
        {admin && dncLists && (
          <Suspense fallback={null}>
            <DncAgeBanner status={dncLists} />
          </Suspense>
        )}
        <Toasts />
        <Suspense fallback={pageLoader}>
          <Outlet />
        </Suspense>
        {/* In the page flow rather than AppShell's fixed footer, so it never covers content. */}
        {!handle.hideFooter && !handle.bare && (
          <Box
            component="footer"
            mt="xl"
            style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
          >
            <Footer showLinks={!handle.hideFooterLinks} />
          </Box>
        )}
      </AppShell.Main>
    </AppShell>
  );
}
