import { Button, Group, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { USER_TYPES, type UserType } from '@scrub/contract';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { AgencyInput, typeOptions } from '../../common/create-account-form';
import { showFailure } from '../../common/show-failure';
import { useOwnRole } from '../../data/account';
import { useAdminUser, useUpdateAccount } from '../../data/admin';
import { notifySuccess } from '../../shell/notify';
import { UserPageFrame } from './user-page-frame';

const typeOfRole = (role: string) => role.toLowerCase().replace(' ', '_') as UserType;

/**
 * EditUser (seed 2): e-mail and type must not be empty; a blank password leaves it unchanged. An
 * admin sets a User account's Agency (blank: none); an Agency changes neither type nor Agency.
 */
export default function EditUserPage() {
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  const user = useAdminUser(userId);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [type, setType] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [agency, setAgency] = useState('');
  const isAgency = useOwnRole().data === 'Agency';
  useEffect(() => {
    if (!user.data) return;
    setEmail(user.data.email);
    setName(user.data.user_name);
    setAgency(user.data.agency?.email ?? '');
    setType(USER_TYPES.includes(typeOfRole(user.data.role.name)) ? typeOfRole(user.data.role.name) : null);
  }, [user.data]);
  const save = useUpdateAccount(userId, {
    onSuccess: (answer) => {
      notifySuccess(answer.message);
      navigate('/users');
    },
    onError: showFailure,
  });
  const submit = () =>
    save.mutate({
      le: email.trim(),
      ut: type as UserType,
      full_name: name.trim(),
      ...(password ? { lp: password } : {}),
      ...(!isAgency && type === 'user' ? { agency: agency.trim() || null } : {}),
    });
  return (
    <UserPageFrame title="Edit User">
      <Stack gap="sm">
        <TextInput label="Email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
        <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Select label="Type" data={typeOptions} value={type} onChange={setType} disabled={isAgency} />
        {!isAgency && type === 'user' && <AgencyInput value={agency} onChange={setAgency} />}
        <PasswordInput
          label="New password"
          description="Leave blank to keep the current password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Group>
          <Button onClick={submit} disabled={!email.trim() || !type || !user.data} loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </UserPageFrame>
  );
}
