import { fireEvent, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderScreen } from '../../test/render';
import { TestNumberForm } from './test-number-form';

const testButton = () => screen.getByRole('button', { name: 'Test' }) as HTMLButtonElement;

test('without an API key the form says to generate one, and Test stays disabled', () => {
  renderScreen(<TestNumberForm hasKey={false} />);
  expect(screen.getByText('Generate an API key first')).toBeTruthy();
  fireEvent.input(screen.getByTestId('test-phone'), { target: { value: '2015550123' } });
  expect(testButton().disabled).toBe(true);
});

test('what is typed keeps its digits only, ten at most, and Test waits for all ten', () => {
  renderScreen(<TestNumberForm hasKey />);
  const phone = screen.getByTestId('test-phone') as HTMLInputElement;
  expect(screen.getByText('Enter a 10-digit phone number')).toBeTruthy();

  fireEvent.input(phone, { target: { value: '(201) 555-01' } });
  expect(phone.value).toBe('20155501');
  expect(testButton().disabled).toBe(true);

  fireEvent.input(phone, { target: { value: '(201) 555-0123 ext 9' } });
  expect(phone.value).toBe('2015550123');
  expect(testButton().disabled).toBe(false);
});

test('before the test, the lists a check consults with their dates, and plainly when one is stale', () => {
  renderScreen(
    <TestNumberForm
      hasKey
      lists={[{ list: 'federal', released_on: '2026-09-01', age_days: 87, stale: true }]}
    />,
  );
  expect(screen.getByTestId('dnc-list').textContent).toBe(
    'Federal DNC registry: released 2026-09-01, 87 days ago Stale',
  );
  expect(screen.getByTestId('dnc-notice').textContent).toMatch(
    /is too old: numbers not on it answer unchecked/,
  );
});

test('a number pasted in any spelling /verify takes becomes its ten digits and enables Test', () => {
  renderScreen(<TestNumberForm hasKey />);
  const phone = screen.getByTestId('test-phone') as HTMLInputElement;
  // The browser's own paste: a length limit on the box would cut the text before the form saw it.
  expect(phone.maxLength).toBe(-1);
  for (const pasted of ['(201) 234-5678', '+1 201-234-5678', '1.201.234.5678']) {
    fireEvent.input(phone, { target: { value: pasted } });
    expect(phone.value).toBe('2012345678');
    expect(testButton().disabled).toBe(false);
  }
});
