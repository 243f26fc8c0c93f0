import type { RunningServer } from '@scrub/server';
import { fireEvent, screen } from '@testing-library/react';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServiceForPage } from '../../test/local-service';
import { renderScreen } from '../../test/render';
import ContactPage from './contact-page';

let server: RunningServer;

beforeAll(async () => {
  server = await startServiceForPage('/contact');
});

afterAll(async () => {
  await server?.close();
});

const type = (label: RegExp | string, value: string) =>
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send' }));

test('Send with nothing typed names every missing field; the human check has nothing to type', async () => {
  renderScreen(<ContactPage />);
  send();
  expect(await screen.findByText('Name is required')).toBeTruthy();
  for (const message of ['Email is required', 'Subject is required', 'Message is required']) {
    expect(screen.getByText(message)).toBeTruthy();
  }
  expect(screen.queryByText('Recaptcha is required')).toBeNull();
  expect(screen.queryByLabelText(/What is 3 \+ 4/)).toBeNull();
  expect(screen.getByTestId('human-check-note').textContent).toMatch(/nothing to type/);
});

test("a filled form is sent with the service's human check solved, the service answers, and the form is emptied", async () => {
  renderScreen(<ContactPage />);
  type(/^Name/, 'Pat Doe');
  type(/^Email/, 'pat@example.com');
  type(/^Subject/, 'A question');
  type(/^Message/, 'How long are results kept?');
  send();
  const sent = await screen.findByTestId('contact-sent', {}, { timeout: 30_000 });
  expect(sent.textContent).toContain('Message sent successfully');
  expect((screen.getByLabelText(/^Subject/) as HTMLInputElement).value).toBe('');
});
