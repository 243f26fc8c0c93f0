import {
  ActionIcon,
  Avatar,
  Button,
  Group,
  Modal,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { ManagedUser } from '@scrub/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { startActing } from '../../auth/acting';
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
    <ScrollArea type="auto">
      <Table striped withTableBorder data-testid="users-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>ID</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Avatar</Table.Th>
            <Table.Th>Action</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
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
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/**
 * Users (seed 2): ID, Name, Email, Role, Avatar and the actions edit, delete, reset password, and
 * act as. An Agency sees its own client accounts only: the service lists no other account to it.
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
      <Group justify="space-between">
        <Title order={1}>Users</Title>
        <Button component={Link} to="/add">
          Add User
        </Button>
      </Group>
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
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete user"
        centered
      >
        <Text>Are you sure? Do you really want to delete this user?</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setDeleting(null)}>
            Cancel
          </Button>
          <Button
            color="red"
            onClick={() => {
              if (deleting) remove.mutate({ userId: deleting.user_id, enabled: false });
              setDeleting(null);
            }}
          >
            Delete
          </Button>
        </Group>
      </Modal>
      <ResetPasswordModal user={resetting} onClose={() => setResetting(null)} />
    </Stack>
  );
}
