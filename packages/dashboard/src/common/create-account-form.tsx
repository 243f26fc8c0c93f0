import { Button, Group, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { adminMessages, USER_TYPES, type UserType } from '@scrub/contract';
import { useState } from 'react';
import { errorMessage } from '../api/error-message';
import { useOwnRole } from '../data/account';
import { useCreateAccount } from '../data/admin';
import { showErrorDialog } from '../shell/error-dialog';
import { notifySuccess } from '../shell/notify';
import { ConfirmModal } from './confirm-modal';

export const typeLabels: Record<UserType, string> = {
  user: 'User',
  agency: 'Agency',
  admin: 'Admin',
  super_admin: 'Super Admin',
};
/** 'an Agency', 'an Admin', but 'a User' (a 'you' sound) and 'a Super Admin'. */
const article = (word: string) => (/^[AEIO]/.test(word) ? 'an' : 'a');
export const typeOptions = USER_TYPES.map((value) => ({ value, label: typeLabels[value] }));

/**
 * Create Account (seed 2): e-mail, password, confirm password and type, all required; the button
 * is disabled while a field is empty or a request is in flight, and a confirmation modal comes first.
 * An admin may name the Agency a User account is a client of; an Agency creates its own clients,
 * always of type User.
 */
export function CreateAccountForm({ onCreated }: { onCreated?: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [chosenType, setType] = useState<string | null>(null);
  const [agency, setAgency] = useState('');
  const isAgency = useOwnRole().data === 'Agency';
  const type = isAgency ? 'user' : chosenType;
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateAccount({
    onSuccess: () => {
      notifySuccess(adminMessages.accountCreated);
      setEmail('');
      setPassword('');
      setConfirm('');
      setType(null);
      setAgency('');
      onCreated?.();
    },
    onError: (error) => showErrorDialog('Error', errorMessage(error, 'Error while create account')),
  });
  const submit = () =>
    create.mutate({
      le: email.trim(),
      lp: password,
      lp_confirm: confirm,
      ut: type as UserType,
      ...(!isAgency && type === 'user' && agency.trim() ? { agency: agency.trim() } : {}),
    });
  const label = type ? typeLabels[type as UserType] : '';
  const empty = !email.trim() || !password || !confirm || !type;

  const ask = () => {
    if (empty) return setProblem(adminMessages.allFieldsRequired);
    if (password !== confirm) return setProblem(adminMessages.passwordsDiffer);
    setProblem(null);
    setConfirming(true);
  };

  return (
    <Stack gap="sm">
      <TextInput label="Email" type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
      <PasswordInput label="Password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
      <PasswordInput
        label="Confirm password"
        value={confirm}
        onChange={(e) => setConfirm(e.currentTarget.value)}
        error={problem}
      />
      <Select
        label="Type"
        placeholder="Choose a type"
        data={typeOptions}
        value={type}
        onChange={setType}
        disabled={isAgency}
        description={isAgency ? 'Your clients are User accounts' : undefined}
      />
      {!isAgency && type === 'user' && <AgencyInput value={agency} onChange={setAgency} />}
      <Group>
        <Button onClick={ask} disabled={empty || create.isPending} loading={create.isPending}>
          Create Account
        </Button>
      </Group>
      <ConfirmModal
        opened={confirming}
        title="Create account"
        confirmLabel="Confirm"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          submit();
        }}
      >
        <Text>
          Create {article(label)} {label} account for {email.trim()}?
        </Text>
      </ConfirmModal>
    </Stack>
  );
}

/** The Agency a User account is a client of: its e-mail address (or id); blank for none. */
export function AgencyInput({ value, onChange }: { value: string; onChange(value: string): void }) {
  return (
    <TextInput
      label="Agency"
      description="Optional: the e-mail of the Agency account whose client this user is"
      placeholder="agency@example.com"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}
