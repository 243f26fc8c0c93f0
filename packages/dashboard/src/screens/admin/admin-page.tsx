import { Anchor, Button, Group, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { ManagedUser } from '@scrub/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { startActing } from '../../auth/acting';
import { ConfirmModal } from '../../common/confirm-modal';
import { CreateAccountForm } from '../../common/create-account-form';
import { PageHeader } from '../../common/page-header';
import { showFailure } from '../../common/show-failure';
import { useOwnRole } from '../../data/account';
import { useActAs, useAdminUser, useAdminUsers, useSetAccountEnabled } from '../../data/admin';
import { notifySuccess } from '../../shell/notify';
import { Pager } from '../../shell/pager';
import { UserInfoModal } from './user-info-modal';

/** The chosen account: its plan, and what an admin does with it. */
function SelectedAccount({ userId, onInfo }: { userId: string; onInfo(): void }) {
  const user = useAdminUser(userId);
  const [deleting, setDeleting] = useState(false);
  const actAs = useActAs({ onSuccess: (token) => startActing(token), onError: showFailure });
  const setEnabled = useSetAccountEnabled({
    onSuccess: (answer) => notifySuccess(answer.message),
    onError: showFailure,
  });
  /** Enables a disabled account, disables (deletes) any other. */
  const toggle = () => setEnabled.mutate({ userId, enabled: user.data?.status === 'disabled' });
  const info = user.data;
  if (!info) return <Text c="dimmed">Loading…</Text>;
  const disabled = info.status === 'disabled';
  return (
    <Stack gap="xs">
      <Text>
        Your Current Plan:{' '}
        <Text span fw={600} data-testid="selected-plan">
          {info.user_plan.plan_name || 'Pay as you go'}
        </Text>{' '}
        · {info.has_unlimited ? 'UNLIMITED' : `${info.total_credits_balance.toLocaleString('en-US')} credits`}{' '}
        ·{' '}
        <Text span data-testid="selected-status">
          {info.status}
        </Text>
      </Text>
      <Group gap="xs">
        <Button variant="light" onClick={onInfo}>
          User Information
        </Button>
        <Button onClick={() => actAs.mutate(userId)} loading={actAs.isPending} disabled={disabled}>
          Act as this user
        </Button>
        <Button
          color={disabled ? 'teal' : 'red'}
          variant="outline"
          onClick={() => (disabled ? toggle() : setDeleting(true))}
          loading={setEnabled.isPending}
        >
          {disabled ? 'Enable Account' : 'Delete Account'}
        </Button>
      </Group>
      <ConfirmModal
        opened={deleting}
        title="Delete account"
        confirmLabel="Delete"
        color="red"
        onCancel={() => setDeleting(false)}
        onConfirm={() => {
          setDeleting(false);
          toggle();
        }}
      >
        <Text>Are you sure? Do you really want to delete this user?</Text>
        <Text size="sm" c="dimmed" mt="xs">
          The account is disabled: its sign-ins, key and queued files stop; nothing is erased.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}

type Option = { value: string; label: string; email: string };

const toOption = (user: ManagedUser): Option => ({
  value: user.user_id,
  label: `${user.email} (${user.role_name}${user.status === 'disabled' ? ', disabled' : ''})`,
  email: user.email,
});

/** Admin Page (seed 2): pick an account, see its plan, create, delete, inform, act as. */
export default function AdminPage() {
  const role = useOwnRole();
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<Option | null>(null);
  // Once an account is picked the box shows its label: search for its address, not for the label.
  const shownLabel = picked !== null && search.startsWith(`${picked.email} (`);
  const [debounced] = useDebouncedValue(shownLabel ? picked.email : search, 250);
  // The picker lists a page of the matching accounts; the pager under it turns to the next.
  const [page, setPage] = useState(1);
  const users = useAdminUsers(debounced.trim(), page);
  const selected = picked?.value ?? null;
  const [infoOpen, setInfoOpen] = useState(false);
  const superAdmin = role.data === 'Super Admin';
  const options = (users.data?.users ?? []).map(toOption);
  if (picked && !options.some((option) => option.value === picked.value)) options.unshift(picked);

  return (
    <Stack maw={1100}>
      <PageHeader title="Admin Page">
        <Group gap="xs">
          {superAdmin && (
            <Button component={Link} to="/audit" variant="default">
              Audit log
            </Button>
          )}
          <Button component={Link} to="/uploadexisting" variant="light">
            Upload Existing Files
          </Button>
        </Group>
      </PageHeader>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="lg" component="section" aria-labelledby="select-user-title">
          <Title order={2} size="h4" id="select-user-title" mb="sm">
            Select User Account
          </Title>
          <Select
            label="User account"
            placeholder="Search by e-mail or name"
            searchable
            clearable
            data={options}
            value={selected}
            onChange={(value) => setPicked(options.find((option) => option.value === value) ?? null)}
            searchValue={search}
            onSearchChange={(value) => {
              setSearch(value);
              setPage(1);
            }}
            filter={({ options: all }) => all}
            nothingFoundMessage={users.isPending ? 'Loading…' : 'No account found'}
          />
          <Text size="xs" c="dimmed" mt={4} data-testid="picker-count">
            {users.data ? `${users.data.total.toLocaleString('en-US')} accounts match` : ' '}
          </Text>
          {users.data && users.data.totalPages > 1 && (
            <Pager page={page} totalPages={users.data.totalPages} onPage={setPage} justify="flex-start" />
          )}
          <Stack mt="md">
            {selected ? (
              <SelectedAccount userId={selected} onInfo={() => setInfoOpen(true)} />
            ) : (
              <Text c="dimmed">Choose an account to see its plan.</Text>
            )}
          </Stack>
        </Paper>
        <Paper withBorder p="lg" component="section" aria-labelledby="create-title">
          <Title order={2} size="h4" id="create-title" mb="sm">
            Create Account
          </Title>
          <CreateAccountForm />
          <Text size="xs" c="dimmed" mt="sm">
            {superAdmin ? 'You may create any type.' : 'Only a Super Admin creates Admin accounts.'}{' '}
            <Anchor component={Link} to="/users" size="xs">
              User Management
            </Anchor>
          </Text>
        </Paper>
      </SimpleGrid>
      <UserInfoModal userId={infoOpen ? selected : null} onClose={() => setInfoOpen(false)} />
    </Stack>
  );
}
