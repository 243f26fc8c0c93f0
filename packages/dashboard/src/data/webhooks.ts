import type {
  CreateWebhookEndpoint,
  RotatedWebhookSecret,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '@scrub/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';
import type { Callbacks } from './callbacks';

/** The account's webhook endpoints (the SDK's `webhooks` namespace; wire paths /webhook-endpoints). */
const webhooks = async () => (await loadScrub()).webhooks;

export const webhookKeys = {
  all: ['webhooks'] as const,
  endpoints: ['webhooks', 'endpoints'] as const,
  deliveries: (endpointId: string, page: number) => ['webhooks', 'deliveries', endpointId, page] as const,
};

/** The endpoints, oldest first, without their secrets. */
export function useWebhookEndpoints() {
  return useQuery({ queryKey: webhookKeys.endpoints, queryFn: async () => (await webhooks()).list() });
}

/** One page of an endpoint's deliveries, newest first, each with its attempts; null id: none asked. */
export function useWebhookDeliveries(endpointId: string | null, page: number, limit = 10) {
  return useQuery({
    queryKey: webhookKeys.deliveries(endpointId ?? '', page),
    queryFn: async () => (await (await webhooks()).deliveries(endpointId!, { page, limit })).toJSON(),
    enabled: endpointId !== null,
    placeholderData: keepPreviousData,
  });
}

/** A change to the endpoints or their logs: every list is read again, then the screen is told. */
function useWebhookChange<Input, Output>(
  change: (input: Input) => Promise<Output>,
  callbacks: Callbacks<Output>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async (output) => {
      await client.invalidateQueries({ queryKey: webhookKeys.all });
      await callbacks.onSuccess?.(output);
    },
    onError: callbacks.onError,
  });
}

/** Registers an endpoint; the answer carries its secret, this once. */
export const useAddWebhookEndpoint = (callbacks: Callbacks<WebhookEndpointWithSecret> = {}) =>
  useWebhookChange(async (input: CreateWebhookEndpoint) => (await webhooks()).create(input), callbacks);

/** A new secret, shown once; the old one keeps signing beside it for the service's grace (a day). */
export const useRotateWebhookSecret = (callbacks: Callbacks<RotatedWebhookSecret> = {}) =>
  useWebhookChange(async (endpointId: string) => (await webhooks()).rotateSecret(endpointId), callbacks);

/** Sends a signed `webhook.test` event now; answers the delivery with its first attempt. */
export const useTestWebhookEndpoint = (callbacks: Callbacks<WebhookDelivery> = {}) =>
  useWebhookChange(async (endpointId: string) => (await webhooks()).test(endpointId), callbacks);

export const useRemoveWebhookEndpoint = (callbacks: Callbacks<WebhookEndpoint> = {}) =>
  useWebhookChange(async (endpointId: string) => (await webhooks()).remove(endpointId), callbacks);
