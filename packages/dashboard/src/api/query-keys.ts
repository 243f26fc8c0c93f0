import type { DncListParams, FileListParams } from '@scrub/sdk';

/** Every TanStack Query key of the app, in one place so invalidations cannot drift from queries. */
export const queryKeys = {
  session: ['session'] as const,
  credits: ['credits'] as const,
  user: ['user'] as const,
  plans: ['plans'] as const,
  files: (params: FileListParams) => ['files', params] as const,
  allFiles: ['files'] as const,
  file: (reference: string) => ['file', reference] as const,
  dncSummary: ['dnc', 'summary'] as const,
  dncNumbers: (params: DncListParams) => ['dnc', 'numbers', params] as const,
  allDnc: ['dnc'] as const,
  paymentMethods: ['payment-methods'] as const,
  subscription: ['subscription'] as const,
  purchases: (params: { year: number; month: number | null; perPage: number }) =>
    ['purchases', params] as const,
  allPurchases: ['purchases'] as const,
};
