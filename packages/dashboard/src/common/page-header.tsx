import { Button, Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A screen's title, with its buttons (a way back, a way on) at the other end of the line. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Group justify="space-between">
      <Title order={1}>{title}</Title>
      {children}
    </Group>
  );
}

/** The header's way back to the screen this one was opened from. */
export function BackButton({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Button component={Link} to={to} variant="default">
      {children}
    </Button>
  );
}
