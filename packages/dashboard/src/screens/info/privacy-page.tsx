import { Text, Title } from '@mantine/core';
import { StaticPage } from './static-page';

export default function PrivacyPage() {
  return (
    <StaticPage title="Privacy Policy">
      <Text c="dimmed">Last updated 3/1/2023</Text>
      <Title order={2} size="h4">
        What we keep
      </Title>
      <Text>
        Your e-mail address, name and billing address; the files you upload and their results, kept in your
        dashboard; and the numbers you check, to answer them and to bill you.
      </Text>
      <Title order={2} size="h4">
        What we do not do
      </Title>
      <Text>
        We do not sell your data or the numbers you upload, and we do not contact the numbers you check.
      </Text>
      <Title order={2} size="h4">
        Contact
      </Title>
      <Text>Questions about your data: use the contact page.</Text>
    </StaticPage>
  );
}
