import { List, Stack, Title } from '@mantine/core';

export function HowItWorks() {
  return (
    <Stack id="how-it-works" component="section" aria-labelledby="how-title">
      <Title order={2} id="how-title">
        How it works
      </Title>
      <List type="ordered" spacing="xs">
        <List.Item>Sign up and confirm your e-mail: it takes 10 seconds.</List.Item>
        <List.Item>Buy credits or a plan. One credit checks one phone number.</List.Item>
        <List.Item>Upload a CSV, check one number, or connect your CRM with your API key.</List.Item>
        <List.Item>Download your file with Line Type and DNC columns added, from your dashboard.</List.Item>
      </List>
    </Stack>
  );
}
