import {
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AutoTopUpSettings, Plan, UpdateAutoTopUp } from '@scrub/sdk';
import { useState } from 'react';
import { errorMessage } from '../../api/error-message';
import { usePlans } from '../../data/plans';
import { useAutoTopUp, useSetAutoTopUp } from '../../data/purchases';
import { showErrorDialog } from '../../shell/error-dialog';
import { PackSelect } from './pack-select';

const credits = (n: number) => n.toLocaleString('en-US');

/** Each prepaid credit pack at each of its prices: one choice, `reference:dollars`. */
function packChoices(plans: Plan[]) {
  return plans
    .filter((plan) => plan.plan_type === 'prepaid' && !plan.unlimited)
    .flatMap((plan) =>
      plan.amount_options
        .filter((option) => option.amount >= 5)
        .map((option) => ({
          value: `${plan.plan_reference}:${option.amount}`,
          label: `${plan.plan_name}: $${option.amount} (${credits((option.credits ?? 0) + plan.bonus_credits)} credits)`,
        })),
    );
}

/**
 * Auto top-up (buy a pack on the default card when a charge takes the balance below a threshold)
 * and the low-balance e-mail, on My Account. A declined card stops auto top-up: said here, and by
 * e-mail, until the customer turns it on again.
 */
export function AutoTopUpCard() {
  const settings = useAutoTopUp();
  const plans = usePlans();
  if (!settings.data || !plans.data) return null;
  return (
    <AutoTopUpForm key={settings.data.stopped_at ?? 'form'} settings={settings.data} plans={plans.data} />
  );
}

function AutoTopUpForm({ settings, plans }: { settings: AutoTopUpSettings; plans: Plan[] }) {
  const [enabled, setEnabled] = useState(settings.enabled);
  const [threshold, setThreshold] = useState<number | string>(settings.threshold || 1000);
  const [pack, setPack] = useState<string | null>(
    settings.plan_reference && settings.amount !== null
      ? `${settings.plan_reference}:${settings.amount}`
      : null,
  );
  const [lowBalance, setLowBalance] = useState<number | string>(settings.low_balance_threshold ?? '');
  const save = useSetAutoTopUp({
    onSuccess: () => {
      notifications.show({
        closeButtonProps: { 'aria-label': 'Close notification' },
        color: 'teal',
        message: 'Auto top-up saved',
      });
    },
    onError: (error) => showErrorDialog('Error!', errorMessage(error)),
  });
  const submit = () => {
    const [plan_reference, amount] = pack ? pack.split(':') : [];
    const change: UpdateAutoTopUp = {
      enabled,
      ...(typeof threshold === 'number' ? { threshold } : {}),
      ...(plan_reference ? { plan_reference, amount: Number(amount) } : {}),
      low_balance_threshold: typeof lowBalance === 'number' ? lowBalance : null,
    };
    save.mutate(change);
  };
  const last = settings.last_attempt;
  return (
    <Paper
      withBorder
      p="lg"
      component="section"
      aria-labelledby="auto-top-up-title"
      data-testid="auto-top-up"
    >
      <Title order={2} size="h4" id="auto-top-up-title">
        Auto top-up and low-balance e-mail
      </Title>
      <Text size="sm" c="dimmed" mt="xs">
        When a check or a file takes your balance below the threshold, your default card buys the pack once;
        it buys again after the balance has been back above the threshold.
      </Text>
      {settings.status === 'stopped' && (
        <Alert color="red" mt="sm" title="Auto top-up stopped" data-testid="auto-top-up-stopped">
          {settings.stopped_reason} Update your card, then turn auto top-up on again.
        </Alert>
      )}
      <Stack mt="sm" gap="sm">
        <Switch
          label="Auto top-up"
          checked={enabled}
          onChange={(event) => setEnabled(event.currentTarget.checked)}
        />
        {/* Side by side on a wide screen; one above the other on a phone, where the pack needs the width. */}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label="Buy when the balance falls below (credits)"
            min={1}
            max={10_000_000}
            thousandSeparator=","
            value={threshold}
            onChange={setThreshold}
          />
          <PackSelect choices={packChoices(plans)} value={pack} onChange={setPack} />
        </SimpleGrid>
        <NumberInput
          label="E-mail me when the balance falls below (credits; empty: never)"
          min={1}
          max={10_000_000}
          thousandSeparator=","
          value={lowBalance}
          onChange={setLowBalance}
        />
        {last && (
          <Text size="sm" data-testid="auto-top-up-last">
            Last top-up, {new Date(last.created_at).toLocaleString()}: {last.status}
            {last.message ? ` (${last.message})` : ''}
          </Text>
        )}
        <Group>
          <Button loading={save.isPending} onClick={submit}>
            Save auto top-up
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
