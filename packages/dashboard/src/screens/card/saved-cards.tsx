import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { errorMessage } from '../../api/error-message';
import { useCards, useSetDefaultCard } from '../../data/cards';
import { cardName } from '../../payments/format';
import { showErrorDialog } from '../../shell/error-dialog';

/** The saved cards; the default one is charged for purchases and the monthly plan. */
export function SavedCards() {
  const cards = useCards();
  const makeDefault = useSetDefaultCard({
    onSuccess: () => {
      showErrorDialog('Success', 'Card Updated Successfully');
    },
    onError: (error) => showErrorDialog('Error', errorMessage(error)),
  });
  if (cards.isError) return <Alert color="red">{errorMessage(cards.error)}</Alert>;
  if (!cards.data?.length) return null;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="cards-title">
      <Title order={2} size="h4" id="cards-title">
        Saved cards
      </Title>
      <Stack gap="xs" mt="sm" data-testid="saved-cards">
        {cards.data.map((card) => (
          <Group key={card.id} justify="space-between">
            <Text>
              {cardName(card)}, expires {String(card.exp_month).padStart(2, '0')}/{card.exp_year}
            </Text>
            {card.is_default ? (
              <Badge color="teal.9">Default</Badge>
            ) : (
              <Button
                size="xs"
                variant="default"
                loading={makeDefault.isPending && makeDefault.variables === card.id}
                onClick={() => makeDefault.mutate(card.id)}
              >
                Make default
              </Button>
            )}
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
