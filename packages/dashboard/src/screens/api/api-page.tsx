import { Alert, Center, Loader, Stack, Title } from '@mantine/core';
import type { ApiKeyRotation } from '@scrub/sdk';
import { useState } from 'react';
import { errorMessage } from '../../api/error-message';
import { useAccount } from '../../data/account';
import { useDncLists } from '../../data/service';
import { ApiDocs } from './api-docs';
import { ApiKeyCard } from './api-key-card';
import { OpenApiReference } from './openapi-reference';
import { TestNumberForm } from './test-number-form';

/** API Documentation & Testing: the key, a live check of one number, and the docs. */
export default function ApiPage() {
  const user = useAccount();
  const dncLists = useDncLists().data;
  // The whole key, held in memory only, between its generation and leaving the page.
  const [generated, setGenerated] = useState<ApiKeyRotation | null>(null);

  if (user.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (user.isError) return <Alert color="red">{errorMessage(user.error)}</Alert>;
  const hasKey = Boolean(generated ?? user.data.api_key_last4);

  return (
    <Stack maw={960}>
      <Title order={1}>API Documentation & Testing</Title>
      <ApiKeyCard last4={user.data.api_key_last4} generated={generated} onGenerated={setGenerated} />
      <TestNumberForm hasKey={hasKey} lists={dncLists?.lists} />
      <ApiDocs apiKey={generated?.api_key ?? null} />
      <OpenApiReference />
    </Stack>
  );
}
