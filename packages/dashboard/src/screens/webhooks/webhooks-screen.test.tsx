import type { WebhookDelivery } from '@scrub/sdk';
import { fireEvent, screen } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import { renderScreen } from '../../test/render';
import { DeliveriesTable } from './deliveries-table';
import { EndpointForm } from './endpoint-form';

test('adds an endpoint with the events ticked: both by default, never none', () => {
  const onAdd = vi.fn();
  renderScreen(<EndpointForm adding={false} onAdd={onAdd} />);
  const add = screen.getByRole('button', { name: 'Add endpoint' }) as HTMLButtonElement;
  expect(add.disabled).toBe(true);

  fireEvent.change(screen.getByLabelText(/Endpoint URL/), {
    target: { value: ' https://crm.example.com/hook ' },
  });
  fireEvent.change(screen.getByLabelText(/Description/), { target: { value: 'CRM' } });
  const completed = screen.getByLabelText(/^job\.completed/) as HTMLInputElement;
  const failed = screen.getByLabelText(/^job\.failed/) as HTMLInputElement;
  expect([completed.checked, failed.checked]).toEqual([true, true]);

  fireEvent.click(completed);
  fireEvent.click(failed);
  expect(add.disabled).toBe(true);
  fireEvent.click(failed);
  fireEvent.click(add);
  expect(onAdd).toHaveBeenCalledWith({
    url: 'https://crm.example.com/hook',
    events: ['job.failed'],
    description: 'CRM',
  });
});

test("shows each delivery's status, next try and every attempt's answer", () => {
  const delivery = (over: Partial<WebhookDelivery>): WebhookDelivery => ({
    id: 'wd_1',
    event_id: 'evt_1',
    type: 'job.completed',
    status: 'delivered',
    attempts: 0,
    status_code: null,
    response_ms: null,
    error: null,
    next_retry_at: null,
    created_at: '2026-11-27T10:00:00.000Z',
    log: [],
    ...over,
  });
  renderScreen(
    <DeliveriesTable
      deliveries={[
        delivery({
          id: 'wd_2',
          event_id: 'evt_2',
          type: 'job.failed',
          status: 'pending',
          attempts: 1,
          next_retry_at: '2026-11-27T10:05:00.000Z',
          log: [
            {
              attempt: 1,
              attempted_at: '2026-11-27T10:00:01.000Z',
              status_code: null,
              response_ms: null,
              error: 'connection refused',
            },
          ],
        }),
        delivery({
          attempts: 2,
          log: [
            {
              attempt: 1,
              attempted_at: '2026-11-27T10:00:01.000Z',
              status_code: 500,
              response_ms: 12,
              error: 'the endpoint answered 500',
            },
            {
              attempt: 2,
              attempted_at: '2026-11-27T10:01:01.000Z',
              status_code: 200,
              response_ms: 8,
              error: null,
            },
          ],
        }),
      ]}
    />,
  );
  const rows = screen.getByTestId('webhook-deliveries').querySelectorAll('tbody tr');
  expect(rows).toHaveLength(2);
  expect(rows[0]!.textContent).toMatch(/job\.failed.*evt_2.*pending.*next try.*#1 .*connection refused/);
  expect(rows[1]!.textContent).toMatch(/#1 .*the endpoint answered 500 in 12 ms.*#2 .*answered 200 in 8 ms/);
  expect(rows[1]!.textContent).toContain('delivered');
});
