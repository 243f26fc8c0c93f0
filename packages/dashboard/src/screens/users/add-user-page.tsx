import { Paper, Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { CreateAccountForm } from '../../common/create-account-form';
import { BackButton, PageHeader } from '../../common/page-header';

/** AddUser: the Admin page's Create Account, on a page of its own; back to Users once created. */
export default function AddUserPage() {
  const navigate = useNavigate();
  return (
    <Stack maw={560}>
      <PageHeader title="Add User">
        <BackButton to="/users">Back to Users</BackButton>
      </PageHeader>
      <Paper withBorder p="lg">
        <CreateAccountForm onCreated={() => navigate('/users')} />
      </Paper>
    </Stack>
  );
}
