import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { PaymentMethod } from '@scrub/sdk';
import { useState } from 'react';
import { errorMessage } from '../../api/error-message';
import { ConfirmModal } from '../../common/confirm-modal';
import { useCards, useRemoveCard, useSetDefaultCard } from '../../data/cards';
import { cardName } from '../../payments/format';
import { showErrorDialog } from '../../shell/error-dialog';

/** The saved cards; the default one is charged for purchases and the monthly plan. Each can be removed. */
export function SavedCards() {
  const cards = useCards();
  const [removing, setRemoving] = useState<PaymentMethod | null>(null);
  const makeDefault = useSetDefaultCard({
    onSuccess: () => {
      showErrorDialog('Success', 'Card Updated Successfully');
    },
    onError: (error) => showErrorDialog('Error', errorMessage(error)),
  });
  const remove = useRemoveCard({
    onSuccess: (message) => showErrorDialog('Success', message),
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
            <Group gap="xs">
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
              <Button
                size="xs"
                variant="subtle"
                color="red"
                aria-label={`Remove ${cardName(card)}`}
                loading={remove.isPending && remove.variables === card.id}
                onClick={() => setRemoving(card)}
              >
                Remove
              </Button>
            </Group>
          </Group>
        ))}
      </Stack>
      <ConfirmModal
        opened={removing !== null}
        title="Remove card"
        confirmLabel="Remove"
        color="red"
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) remove.mutate(removing.id);
          setRemoving(null);
        }}
      >
        <Text>Remove {removing ? cardName(removing) : 'this card'}? It is no longer charged.</Text>
      </ConfirmModal>
    </Paper>
  );
}
