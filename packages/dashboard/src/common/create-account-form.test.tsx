import { adminMessages } from '@scrub/contract';
import { fireEvent, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderScreen } from '../test/render';
import { CreateAccountForm } from './create-account-form';

const type = (label: RegExp | string, value: string) =>
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
const createButton = () => screen.getByRole('button', { name: 'Create Account' }) as HTMLButtonElement;

async function chooseType(name: string) {
  fireEvent.click(screen.getByPlaceholderText('Choose a type'));
  fireEvent.click(await screen.findByRole('option', { name }));
}

test('Create Account stays disabled until every field is filled', async () => {
  renderScreen(<CreateAccountForm />);
  expect(createButton().disabled).toBe(true);
  type('Email', 'new.user@example.com');
  type(/^Password/, 'Secret-pass-1');
  type('Confirm password', 'Secret-pass-1');
  expect(createButton().disabled).toBe(true);
  await chooseType('User');
  expect(createButton().disabled).toBe(false);
});

test('passwords that differ are refused beside the confirmation, before any question', async () => {
  renderScreen(<CreateAccountForm />);
  type('Email', 'new.user@example.com');
  type(/^Password/, 'Secret-pass-1');
  type('Confirm password', 'Secret-pass-2');
  await chooseType('Agency');
  fireEvent.click(createButton());
  expect(await screen.findByText(adminMessages.passwordsDiffer)).toBeTruthy();
  expect(screen.queryByText(/^Create an Agency account/)).toBeNull();
});

test('a User account may name its Agency, and the confirmation names the account', async () => {
  renderScreen(<CreateAccountForm />);
  expect(screen.queryByLabelText('Agency')).toBeNull();
  type('Email', ' new.user@example.com ');
  type(/^Password/, 'Secret-pass-1');
  type('Confirm password', 'Secret-pass-1');
  await chooseType('User');
  expect(screen.getByLabelText('Agency')).toBeTruthy();
  fireEvent.click(createButton());
  expect(await screen.findByText('Create a User account for new.user@example.com?')).toBeTruthy();
});
