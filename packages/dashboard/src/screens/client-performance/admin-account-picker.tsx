import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useAdminUser, useAdminUsers } from '../../data/admin';

const labelOf = (name: string, email: string) => (name ? `${name} (${email})` : email);

/**
 * An admin's pick of any account for Client Performance: type part of an e-mail or a name, and the
 * service's account list (GET /admin/users, 20 a page) offers the matches. Empty: the admin's own.
 */
export function AdminAccountPicker({
  account,
  onChange,
}: {
  account: string | undefined;
  onChange(account: string | undefined): void;
}) {
  const [search, setSearch] = useState('');
  const [typed] = useDebouncedValue(search, 300);
  const matches = useAdminUsers(typed).data?.users ?? [];
  // The account in the address, named even when the search does not list it.
  const picked = useAdminUser(account ?? null).data;
  const options = [
    { value: '', label: 'Your own account' },
    ...(picked && !matches.some((user) => user.user_id === picked.userId)
      ? [{ value: picked.userId, label: labelOf(picked.user_name, picked.email) }]
      : []),
    ...matches.map((user) => ({ value: user.user_id, label: labelOf(user.full_name, user.email) })),
  ];
  return (
    <Select
      label="Account"
      placeholder="Search by e-mail or name"
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The service searched already: every option it sent is shown.
      filter={({ options: all }) => all}
      data={options}
      value={account ?? ''}
      onChange={(value) => onChange(value || undefined)}
      allowDeselect={false}
      nothingFoundMessage="No account matches"
      w={320}
      data-testid="usage-account-picker"
    />
  );
}
