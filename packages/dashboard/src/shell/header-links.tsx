import { Anchor, Burger, Button, Group, Menu } from '@mantine/core';
import { Link } from 'react-router';

const signedInLinks = [
  { to: '/purchase', label: 'CREDITS/PLANS' },
  { to: '/apidoc', label: 'API' },
  { to: '/bulk', label: 'Bulk Upload' },
  { to: '/export', label: 'EXPORT' },
];

/** ADMIN sits after API, only for an admin's own session (seed 2). */
const adminLink = { to: '/admin', label: 'ADMIN' };

/** The header's links; the same list fills the mobile drawer. */
export function HeaderLinks({
  signedIn,
  admin = false,
  vertical = false,
}: {
  signedIn: boolean;
  admin?: boolean;
  vertical?: boolean;
}) {
  const direction = vertical ? 'column' : 'row';
  if (signedIn) {
    const links = admin
      ? [...signedInLinks.slice(0, 2), adminLink, ...signedInLinks.slice(2)]
      : signedInLinks;
    return (
      <Group gap="md" style={{ flexDirection: direction }} align={vertical ? 'flex-start' : 'center'}>
        {links.map((link) => (
          <Anchor key={link.to} component={Link} to={link.to} fw={600} size="sm">
            {link.label}
          </Anchor>
        ))}
      </Group>
    );
  }
  return (
    <Group gap="md" style={{ flexDirection: direction }} align={vertical ? 'flex-start' : 'center'}>
      <Anchor component={Link} to="/#pricing" fw={600} size="sm">
        Pricing
      </Anchor>
      <Anchor component={Link} to="/#how-it-works" fw={600} size="sm">
        How It Works
      </Anchor>
      <Anchor component={Link} to="/faqs" fw={600} size="sm">
        FAQ
      </Anchor>
      <Button component={Link} to="/login" variant="default" size="xs">
        Log In
      </Button>
      <Button component={Link} to="/signup" size="xs">
        Sign Up
      </Button>
    </Group>
  );
}

/** A visitor's page links, for the header below 992 px: a menu. */
const visitorPages = [
  { to: '/#pricing', label: 'Pricing' },
  { to: '/#how-it-works', label: 'How It Works' },
  { to: '/faqs', label: 'FAQ' },
];

/**
 * A visitor's header below 992 px (the seed's mobile breakpoint): Log In and Sign Up as buttons,
 * Pricing, How It Works and FAQ in a menu, so that a phone still reaches them.
 */
export function CompactVisitorLinks() {
  return (
    <Group gap="xs" wrap="nowrap">
      <Button component={Link} to="/login" variant="default" size="compact-sm">
        Log In
      </Button>
      <Button component={Link} to="/signup" size="compact-sm">
        Sign Up
      </Button>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Burger size="sm" aria-label="Menu" />
        </Menu.Target>
        <Menu.Dropdown>
          {visitorPages.map((page) => (
            <Menu.Item key={page.to} component={Link} to={page.to}>
              {page.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
