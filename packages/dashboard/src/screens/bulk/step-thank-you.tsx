import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function StepThankYou() {
  return (
    <Paper withBorder p="xl" mt="md" maw={640}>
      <Stack>
        <Title order={2}>Thank You!</Title>
        <Text>
          Your file is queued. It can take up to 20 minutes depending on the number of records; we will e-mail
          you when it is ready (check your junk/spam folder).
        </Text>
        <Button component={Link} to="/export" w="fit-content">
          Check File Status
        </Button>
      </Stack>
    </Paper>
  );
}
