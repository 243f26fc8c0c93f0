import { Text, Title } from '@mantine/core';
import { StaticPage } from './static-page';

export default function TermsPage() {
  return (
    <StaticPage title="Terms and Conditions">
      <Text>By creating an account you agree to these terms.</Text>
      <Title order={2} size="h4">
        Eligibility
      </Title>
      <Text>You must be at least 18 years old to use Scrub.</Text>
      <Title order={2} size="h4">
        Credits and plans
      </Title>
      <Text>
        One credit checks one phone number. Credits are non-refundable. Subscriptions renew monthly; cancel at
        least 24 hours before the renewal date to avoid the next charge.
      </Text>
      <Title order={2} size="h4">
        Data
      </Title>
      <Text>
        Line-type and do-not-call data is updated regularly, but its accuracy is not guaranteed. The
        do-not-call registry can take up to 31 days to list a new number. You remain responsible for your own
        compliance with telemarketing rules.
      </Text>
    </StaticPage>
  );
}
