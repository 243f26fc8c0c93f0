import { Anchor, Button, Group } from '@mantine/core';
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
