import type { RunningServer } from '@scrub/server';
import { latestCode } from '@scrub/test-support/local-server';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServiceForPage } from '../../test/local-service';
import { renderScreen } from '../../test/render';

let server: RunningServer;
const EMAIL = `cards.${Date.now()}@example.com`;
const PASSWORD = 'Secret-pass-1';

beforeAll(async () => {
  server = await startServiceForPage('/card', { SCRUB_LOG_LEVEL: 'silent' });
  const { scrub } = await import('../../api/scrub-client');
  await scrub.auth.signUp({ email: EMAIL, password: PASSWORD });
  await scrub.auth.confirmSignUp({ email: EMAIL, code: await latestCode(server, EMAIL) });
  await scrub.auth.signIn({ email: EMAIL, password: PASSWORD });
  const address = { customer_name: 'Lee Park', line1: '1 Main St', city: 'Newark', state: 'NJ' };
  await scrub.cards.setup({ ...address, payment_method_id: 'pm_card_visa' });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

test('a saved card is removed from the card page, after a question', async () => {
  const { SavedCards } = await import('./saved-cards');
  renderScreen(<SavedCards />);
  const list = await screen.findByTestId('saved-cards');
  expect(within(list).getByText(/Visa ending 4242/)).toBeTruthy();
  fireEvent.click(within(list).getByRole('button', { name: 'Remove Visa ending 4242' }));
  fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
  await screen.findByText('Card Removed Successfully: visa ending 4242.');
  await waitFor(() => expect(screen.queryByTestId('saved-cards')).toBeNull());
});
