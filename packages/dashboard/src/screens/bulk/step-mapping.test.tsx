import type { CreditSnapshot } from '@scrub/sdk';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { WizardFile } from '../../common/wizard-state';
import { renderScreen } from '../../test/render';
import { StepMapping } from './step-mapping';

const chosen: WizardFile = {
  file: new File(['Name,Phone\nAnn,2012345678\n'], 'list.csv', { type: 'text/csv' }),
  preview: { headers: ['Name', 'Phone'], rows: [['Ann', '2012345678']], phoneColumn: 1 },
  headerRow: true,
};

const fiveCredits: CreditSnapshot = {
  credits: 5,
  credits_remaining: 5,
  has_unlimited: false,
  user_plan: { plan_reference: null, plan_status: 'active', plan_name: '' },
  subscription_status: 'none',
};

test('short of credits, step 2 says so and still goes on to step 3, where the seed says to add more', async () => {
  const onDone = vi.fn();
  renderScreen(
    <StepMapping
      chosen={chosen}
      credits={fiveCredits}
      initial={null}
      records={120}
      onLines={() => undefined}
      onHeaderRowChange={() => undefined}
      onBack={() => undefined}
      onDone={onDone}
    />,
  );
  expect(screen.getByTestId('quote').textContent).toMatch(/You only have 5 credits/);
  const processButton = screen.getByRole('button', { name: 'Process' }) as HTMLButtonElement;
  expect(processButton.disabled).toBe(false);
  fireEvent.click(processButton);
  await waitFor(() => expect(onDone).toHaveBeenCalled());
  expect(onDone.mock.calls[0]?.[0]).toMatchObject({ phone_col: '1' });
});
