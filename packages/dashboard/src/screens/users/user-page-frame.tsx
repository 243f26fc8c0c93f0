import { Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { BackButton, PageHeader } from '../../common/page-header';

/** Add User and Edit User: a titled page with the way back to Users, and the form on a card. */
export function UserPageFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack maw={560}>
      <PageHeader title={title}>
        <BackButton to="/users">Back to Users</BackButton>
      </PageHeader>
      <Paper withBorder p="lg">
        {children}
      </Paper>
    </Stack>
  );
}
