import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';

export function Footer({ showLinks }: { showLinks: boolean }) {
  return (
    <Group justify="space-between" px="md" py="sm" wrap="wrap">
      <Text size="sm" c="dimmed">
        © {new Date().getFullYear()} Scrub. All rights reserved.
      </Text>
      {showLinks && (
        <Group gap="md" component="nav" aria-label="Footer">
          <Anchor component={Link} to="/contact" size="sm">
            Contact
          </Anchor>
          <Anchor component={Link} to="/RefundPolicy" size="sm">
            Refund Policy
          </Anchor>
          <Anchor component={Link} to="/terms" size="sm">
            Terms
          </Anchor>
          <Anchor component={Link} to="/privacypolicy" size="sm">
            Privacy Policy
          </Anchor>
        </Group>
      )}
    </Group>
  );
}
