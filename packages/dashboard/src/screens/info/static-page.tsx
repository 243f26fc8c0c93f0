import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The frame of the static pages: a title and readable line lengths. */
export function StaticPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack maw={760} gap="sm">
      <Title order={1}>{title}</Title>
      {children}
    </Stack>
  );
}
