import { Avatar, Menu, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { AuthSession } from '@scrub/sdk';
import { Link, useNavigate } from 'react-router';
import { signOut } from '../auth/sign-out';
import { useAccount } from '../data/account';

/**
 * Who the shell names: the account's saved name (`GET /user`, as My Account saves it), else the
 * sign-in's name, else the e-mail's local part; and the account's e-mail. While acting, the account
 * acted as.
 */
export function useShownIdentity(session: AuthSession): { name: string; email: string } {
  const account = useAccount().data;
  const email = account?.email ?? session.email;
  const name = account ? account.user_name : session.name;
  return { name: name || email.split('@')[0] || email, email };
}

/** The account menu: who is signed in, Manage My Account, SIGN OUT. */
export function AccountMenu({ session }: { session: AuthSession }) {
  const navigate = useNavigate();
  const shown = useShownIdentity(session);
  return (
    <Menu position="bottom-end" width={260} withinPortal>
      <Menu.Target>
        <UnstyledButton data-testid="account-menu">
          {/* The initials are decoration: the button's name is the hidden text. */}
          <Avatar color="blue" radius="xl" aria-hidden>
            {shown.name.slice(0, 2).toUpperCase()}
          </Avatar>
          <VisuallyHidden>Account menu</VisuallyHidden>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Stack gap={2} p="xs">
          <Text fw={600} data-testid="account-menu-name">
            {shown.name}
          </Text>
          <Text size="sm" c="dimmed">
            {shown.email}
          </Text>
        </Stack>
        <Menu.Divider />
        <Menu.Item component={Link} to="/accountInfo">
          Manage My Account
        </Menu.Item>
        <Menu.Item
          color="red"
          onClick={async () => {
            await signOut();
            navigate('/login');
          }}
          data-testid="sign-out"
        >
          SIGN OUT
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
