import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';

const footerLinks = [
  { to: '/contact', label: 'Contact' },
  { to: '/RefundPolicy', label: 'Refund Policy' },
  { to: '/terms', label: 'Terms' },
  { to: '/privacypolicy', label: 'Privacy Policy' },
];

export function Footer({ showLinks }: { showLinks: boolean }) {
  return (
    <Group justify="space-between" px="md" py="sm" wrap="wrap">
      <Text size="sm" c="dimmed">
        © {new Date().getFullYear()} Scrub. All rights reserved.
      </Text>
      {showLinks && (
        <Group gap="md" component="nav" aria-label="Footer">
          {footerLinks.map((link) => (
            <Anchor key={link.to} component={Link} to={link.to} size="sm">
              {link.label}
            </Anchor>
          ))}
        </Group>
      )}
    </Group>
  );
}
