import { ActionIcon, Avatar, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { ManagedUser } from '@scrub/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { startActing } from '../../auth/acting';
import { ConfirmModal } from '../../common/confirm-modal';
import { DataTable } from '../../common/data-table';
import { PageHeader } from '../../common/page-header';
import { showFailure } from '../../common/show-failure';
import { useActAs, useAdminUsers, useSetAccountEnabled } from '../../data/admin';
import { notifySuccess } from '../../shell/notify';
import { ResetPasswordModal } from './reset-password-modal';

const initials = (user: ManagedUser) =>
  (user.full_name || user.email)
    .split(/[\s@.]+/)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');

/** The accounts with their actions: edit, reset password, act as, delete. */
function UsersTable({
  users,
  actingAs,
  onActAs,
  onReset,
  onDelete,
}: {
  users: ManagedUser[];
  /** The account an act-as token is being asked for. */
  actingAs: string | undefined;
  onActAs(user: ManagedUser): void;
  onReset(user: ManagedUser): void;
  onDelete(user: ManagedUser): void;
}) {
  return (
    <DataTable testId="users-table" headers={['ID', 'Name', 'Email', 'Role', 'Agency', 'Avatar', 'Action']}>
      {users.map((user, i) => (
        <Table.Tr key={user.user_id}>
          <Table.Td>{i + 1}</Table.Td>
          <Table.Td>{user.full_name || '—'}</Table.Td>
          <Table.Td>
            {user.email}
            {user.status === 'disabled' && (
              <Text span size="xs" c="red.8" ml={6}>
                (disabled)
              </Text>
            )}
          </Table.Td>
          <Table.Td>{user.role_name}</Table.Td>
          <Table.Td>{user.agency?.email ?? '—'}</Table.Td>
          <Table.Td>
            <Avatar src={user.avatar} alt={`${user.email}'s avatar`} size="sm" radius="xl">
              {initials(user)}
            </Avatar>
          </Table.Td>
          <Table.Td>
            <Group gap={4} wrap="nowrap">
              <Button size="compact-xs" variant="light" component={Link} to={`/edit/${user.user_id}`}>
                Edit
              </Button>
              <Button size="compact-xs" variant="light" onClick={() => onReset(user)}>
                Reset password
              </Button>
              {user.role_name !== 'Super Admin' && (
                <Button
                  size="compact-xs"
                  variant="light"
                  aria-label={`Act as ${user.email}`}
                  disabled={user.status === 'disabled'}
                  loading={actingAs === user.user_id}
                  onClick={() => onActAs(user)}
                >
                  Act as
                </Button>
              )}
              <ActionIcon
                variant="light"
                color="red"
                size="sm"
                aria-label={`Delete ${user.email}`}
                disabled={user.status === 'disabled'}
                onClick={() => onDelete(user)}
              >
                ×
              </ActionIcon>
            </Group>
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}

/**
 * Users (seed 2): ID, Name, Email, Role, Agency (whose client the account is), Avatar and the
 * actions edit, delete, reset password, and act as. An Agency sees its own client accounts only: the service lists no other account to it.
 */
export default function UsersPage() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const users = useAdminUsers(debounced.trim());
  const [deleting, setDeleting] = useState<ManagedUser | null>(null);
  const [resetting, setResetting] = useState<ManagedUser | null>(null);
  const remove = useSetAccountEnabled({
    onSuccess: (answer) => notifySuccess(answer.message),
    onError: showFailure,
  });
  // An Agency acts as its clients from here (the Admin page is for admins); the service decides who.
  const actAs = useActAs({ onSuccess: (acting) => startActing(acting, '/users'), onError: showFailure });
  const list = users.data?.users ?? [];

  return (
    <Stack maw={1100}>
      <PageHeader title="Users">
        <Button component={Link} to="/add">
          Add User
        </Button>
      </PageHeader>
      <TextInput
        label="Search"
        placeholder="E-mail or name"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={360}
      />
      <UsersTable
        users={list}
        actingAs={actAs.isPending ? actAs.variables : undefined}
        onActAs={(user) => actAs.mutate(user.user_id)}
        onReset={setResetting}
        onDelete={setDeleting}
      />
      {users.isPending && <Text c="dimmed">Loading…</Text>}
      <ConfirmModal
        opened={deleting !== null}
        title="Delete user"
        confirmLabel="Delete"
        color="red"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate({ userId: deleting.user_id, enabled: false });
          setDeleting(null);
        }}
      >
        <Text>Are you sure? Do you really want to delete this user?</Text>
      </ConfirmModal>
      <ResetPasswordModal user={resetting} onClose={() => setResetting(null)} />
    </Stack>
  );
}
