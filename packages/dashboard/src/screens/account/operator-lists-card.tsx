import { Button, Checkbox, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AccountLists } from '@scrub/sdk';
import { useState } from 'react';
import { errorMessage } from '../../api/error-message';
import { useAccountLists, useSetAccountLists } from '../../data/account';
import { showErrorDialog } from '../../shell/error-dialog';

/**
 * The operator lists (known litigators, vendors' lists) a customer's checks and files are flagged
 * with by default. Shown only when the operator imported some.
 */
export function OperatorListsCard() {
  const lists = useAccountLists();
  const save = useSetAccountLists({
    onSuccess: () => {
      notifications.show({
        closeButtonProps: { 'aria-label': 'Close notification' },
        color: 'teal',
        message: 'Lists saved',
      });
    },
    onError: (error) => showErrorDialog('Error!', errorMessage(error)),
  });
  if (!lists.data || lists.data.available.length === 0) return null;
  return (
    <OperatorListsForm settings={lists.data} saving={save.isPending} onSave={(names) => save.mutate(names)} />
  );
}

export function OperatorListsForm({
  settings,
  saving,
  onSave,
}: {
  settings: AccountLists;
  saving: boolean;
  onSave: (lists: string[]) => void;
}) {
  const [chosen, setChosen] = useState(settings.lists);
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="lists-title">
      <Title order={2} size="h4" id="lists-title">
        Flag lists
      </Title>
      <Text size="sm" c="dimmed" mt="xs">
        Numbers on a list you tick are flagged in every check and file (a List column each). A flag is a risk
        to weigh, not a do-not-call listing: it never changes DNC.
      </Text>
      <Checkbox.Group value={chosen} onChange={setChosen} mt="sm">
        <Stack gap="xs">
          {settings.available.map((list) => (
            <Checkbox
              key={list.name}
              value={list.name}
              label={`${list.name} (${list.numbers.toLocaleString('en-US')} numbers${list.released_on ? `, released ${list.released_on}` : ''})`}
            />
          ))}
        </Stack>
      </Checkbox.Group>
      <Button mt="md" loading={saving} onClick={() => onSave(chosen)}>
        Save lists
      </Button>
    </Paper>
  );
}
