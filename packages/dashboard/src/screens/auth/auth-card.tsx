import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The centred card every auth screen sits in, with the welcome logo. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Center py="xl">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={440}>
        <Stack gap="md">
          <Text fw={800} size="xl" c="blue.8" ta="center" aria-hidden>
            Scrub
          </Text>
          <Title order={1} size="h2" ta="center">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
