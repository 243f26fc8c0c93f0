import { Alert, Anchor, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** Shown while the balance and plan a wizard depends on are read. */
export function LoadingAccount() {
  return (
    <Center py="xl">
      <Stack align="center">
        <Loader aria-label="Loading" />
        <Text>Loading your account information...</Text>
      </Stack>
    </Center>
  );
}

/** A wizard the account may not start yet: its title, and the way to put that right. */
export function NotAllowedYet({ title, remedy }: { title: string; remedy: 'activate' | 'buy' }) {
  return (
    <Stack>
      <Title order={1}>{title}</Title>
      <Alert color="yellow" role="status">
        {remedy === 'activate' ? (
          <Anchor component={Link} to="/accountInfo?scrollTo=activate">
            Please activate your account first
          </Anchor>
        ) : (
          <Anchor component={Link} to="/purchase">
            Please buy a plan first
          </Anchor>
        )}
      </Alert>
    </Stack>
  );
}
