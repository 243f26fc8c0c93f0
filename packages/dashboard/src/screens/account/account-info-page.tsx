import { Alert, Center, Loader, SimpleGrid, Stack, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { readActing } from '../../auth/acting';
import { useAccount } from '../../data/account';
import { AuthenticatorCard } from './authenticator-card';
import { AutoTopUpCard } from './auto-top-up-card';
import { CreditHistoryCard } from './credit-history-card';
import { DeleteAccountCard } from './delete-account-card';
import { OperatorListsCard } from './operator-lists-card';
import { PasswordForm } from './password-form';
import { PlanCreditsCard } from './plan-credits-card';
import { ProfileForm } from './profile-form';
import { SignOutEverywhere } from './sign-out-everywhere';

export default function AccountInfoPage() {
  const user = useAccount();
  const [params] = useSearchParams();

  // /accountInfo?scrollTo=activate: the bulk page's "Please activate your account first" lands here.
  useEffect(() => {
    if (user.data && params.get('scrollTo') === 'activate') {
      document.getElementById('activate')?.scrollIntoView();
    }
  }, [user.data, params]);

  if (user.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading your account" />
      </Center>
    );
  }
  if (user.isError) return <Alert color="red">{errorMessage(user.error)}</Alert>;

  return (
    <Stack maw={960}>
      <Title order={1}>My Account</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <ProfileForm user={user.data} />
        <PasswordForm />
      </SimpleGrid>
      {/* The account's own sign-in: not for an admin acting as the user. */}
      {!readActing() && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <AuthenticatorCard />
          <SignOutEverywhere />
        </SimpleGrid>
      )}
      <PlanCreditsCard user={user.data} />
      <AutoTopUpCard />
      <OperatorListsCard />
      {!readActing() && <DeleteAccountCard user={user.data} />}
      <CreditHistoryCard />
    </Stack>
  );
}
