import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { CreateAccountForm } from '../../common/create-account-form';

/** AddUser: the Admin page's Create Account, on a page of its own; back to Users once created. */
export default function AddUserPage() {
  const navigate = useNavigate();
  return (
    <Stack maw={560}>
      <Group justify="space-between">
        <Title order={1}>Add User</Title>
        <Button component={Link} to="/users" variant="default">
          Back to Users
        </Button>
      </Group>
      <Paper withBorder p="lg">
        <CreateAccountForm onCreated={() => navigate('/users')} />
      </Paper>
    </Stack>
  );
}
