import { Button, Group, Radio, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { Plan } from '@scrub/sdk';
import { useState } from 'react';
import { dollars } from './format';

function optionLabel(option: Plan['amount_options'][number]): string {
  if (option.credits === null) {
    return `${dollars(option.amount)}: unlimited checks for ${option.unlimited_days ?? 1} day${option.unlimited_days === 1 ? '' : 's'}`;
  }
  const off = option.percent_off > 0 ? ` (${option.percent_off}% off)` : '';
  return `${dollars(option.amount)}: ${option.credits.toLocaleString('en-US')} credits${off}`;
}

function AmountPicker({ plan, onDone }: { plan: Plan; onDone: (amount: number | null) => void }) {
  const [picked, setPicked] = useState<string | null>(null);
  return (
    <Stack>
      <Text>{plan.plan_name}: choose an amount.</Text>
      <Radio.Group value={picked} onChange={setPicked} label="Amount" name="amount">
        <Stack gap="xs" mt="xs">
          {plan.amount_options.map((option) => (
            <Radio key={option.amount} value={String(option.amount)} label={optionLabel(option)} />
          ))}
        </Stack>
      </Radio.Group>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => onDone(null)}>
          Cancel
        </Button>
        <Button disabled={picked === null} onClick={() => onDone(Number(picked))}>
          Confirm
        </Button>
      </Group>
    </Stack>
  );
}

/** The flexible-amount modal: the plan's amounts; Confirm is enabled once one is picked. */
export function pickAmount(plan: Plan): Promise<number | null> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (amount: number | null) => {
      if (settled) return;
      settled = true;
      modals.close(id);
      resolve(amount);
    };
    const id = modals.open({
      title: 'Select Amount',
      closeButtonProps: { 'aria-label': 'Close dialog' },
      onClose: () => finish(null),
      children: <AmountPicker plan={plan} onDone={finish} />,
    });
  });
}
