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
import { USERS_PER_PAGE, useActAs, useAdminUsers, useSetAccountEnabled } from '../../data/admin';
import { notifySuccess } from '../../shell/notify';
import { Pager } from '../../shell/pager';
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
  firstNumber,
  actingAs,
  onActAs,
  onReset,
  onDelete,
}: {
  users: ManagedUser[];
  /** The ID (row number) of the first row: the rows before it are on earlier pages. */
  firstNumber: number;
  /** The account an act-as token is being asked for. */
  actingAs: string | undefined;
  onActAs(user: ManagedUser): void;
  onReset(user: ManagedUser): void;
  onDelete(user: ManagedUser): void;
}) {
  return (
    <DataTable
      testId="users-table"
      headers={['ID', 'Name', 'Email', 'Role', 'Agency', 'Avatar', 'Action']}
      wideOnly={[0, 1, 3, 4, 5]}
    >
      {users.map((user, i) => (
        <Table.Tr key={user.user_id}>
          <Table.Td visibleFrom="sm">{firstNumber + i}</Table.Td>
          <Table.Td visibleFrom="sm">{user.full_name || '—'}</Table.Td>
          <Table.Td style={{ wordBreak: 'break-all' }}>
            {user.email}
            {/* On a phone the hidden columns' facts go under the address. */}
            <Text hiddenFrom="sm" size="xs" c="dimmed">
              {[user.full_name, user.role_name, user.agency && `client of ${user.agency.email}`]
                .filter(Boolean)
                .join(' · ')}
            </Text>
            {user.status === 'disabled' && (
              <Text span size="xs" c="red.8" ml={6}>
                (disabled)
              </Text>
            )}
          </Table.Td>
          <Table.Td visibleFrom="sm">{user.role_name}</Table.Td>
          <Table.Td visibleFrom="sm">{user.agency?.email ?? '—'}</Table.Td>
          <Table.Td visibleFrom="sm">
            <Avatar src={user.avatar} alt={`${user.email}'s avatar`} size="sm" radius="xl">
              {initials(user)}
            </Avatar>
          </Table.Td>
          <Table.Td>
            <Group gap={4}>
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
  const [page, setPage] = useState(1);
  const users = useAdminUsers(debounced.trim(), page);
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
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        maw={360}
      />
      <UsersTable
        users={list}
        firstNumber={(page - 1) * USERS_PER_PAGE + 1}
        actingAs={actAs.isPending ? actAs.variables : undefined}
        onActAs={(user) => actAs.mutate(user.user_id)}
        onReset={setResetting}
        onDelete={setDeleting}
      />
      {users.isPending && <Text c="dimmed">Loading…</Text>}
      {users.data && users.data.totalPages > 1 && (
        <Pager page={page} totalPages={users.data.totalPages} onPage={setPage} />
      )}
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
