import { fireEvent, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderScreen } from '../../test/render';
import LoginPage from './login-page';

const logIn = () => fireEvent.click(screen.getByRole('button', { name: 'Log In' }));

test('Log In with nothing typed says what is missing, beside each field', async () => {
  renderScreen(<LoginPage />, { path: '/login' });
  logIn();
  expect(await screen.findByText('Email is required')).toBeTruthy();
  expect(screen.getByText('Password is required')).toBeTruthy();
});

test('a malformed address is refused before anything is sent, and the message goes once it is fixed', async () => {
  renderScreen(<LoginPage />, { path: '/login' });
  const email = screen.getByRole('textbox', { name: /Email/ });
  fireEvent.input(email, { target: { value: 'pat@example' } });
  fireEvent.input(screen.getByLabelText(/Password/), { target: { value: 'Secret-pass-1' } });
  logIn();
  expect(await screen.findByText('Invalid email address')).toBeTruthy();
  expect(screen.queryByText('Password is required')).toBeNull();

  fireEvent.input(email, { target: { value: 'pat@example.com' } });
  await expect.poll(() => screen.queryByText('Invalid email address')).toBeNull();
});

test('the message another screen sent along is shown above the form', async () => {
  renderScreen(<LoginPage />, { path: '/login?message=Your%20password%20was%20changed' });
  expect((await screen.findByRole('status')).textContent).toBe('Your password was changed');
});
