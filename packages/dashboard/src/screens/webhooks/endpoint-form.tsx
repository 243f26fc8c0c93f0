import { Button, Checkbox, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { type CreateWebhookEndpoint, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@scrub/sdk';
import { useState } from 'react';

/** What each event means, next to its box. */
const EVENT_LABELS: Record<WebhookEventType, string> = {
  'job.completed': 'job.completed: a bulk job finished and its result is ready',
  'job.failed': 'job.failed: a bulk job failed (its credits were given back)',
};

/** A new endpoint: where Scrub POSTs, which events (both by default), and a note for people. */
export function EndpointForm({
  adding,
  onAdd,
}: {
  adding: boolean;
  onAdd(input: CreateWebhookEndpoint & { events: WebhookEventType[] }): void;
}) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENT_TYPES]);
  const [description, setDescription] = useState('');
  const chosen = events.filter((event): event is WebhookEventType =>
    (WEBHOOK_EVENT_TYPES as readonly string[]).includes(event),
  );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="add-endpoint-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onAdd({ url: url.trim(), events: chosen, description: description.trim() });
        }}
      >
        <Stack>
          <Title order={2} size="h4" id="add-endpoint-title">
            Add an endpoint
          </Title>
          <TextInput
            label="Endpoint URL"
            description="Where Scrub POSTs each event: https://… (a local service also takes http://localhost)"
            placeholder="https://example.com/scrub-events"
            value={url}
            onChange={(event) => setUrl(event.currentTarget.value)}
            required
          />
          <Checkbox.Group label="Events to send" value={events} onChange={setEvents}>
            <Stack gap={6} mt={6}>
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <Checkbox key={type} value={type} label={EVENT_LABELS[type]} />
              ))}
            </Stack>
          </Checkbox.Group>
          <TextInput
            label="Description"
            description="Optional: what the endpoint is for"
            value={description}
            maxLength={255}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <Group>
            <Button type="submit" loading={adding} disabled={url.trim() === '' || chosen.length === 0}>
              Add endpoint
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
