import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider } from '@tanstack/react-query';
import { type RenderOptions, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { queryClient } from '../api/query-client';
import { theme } from '../theme';

/** The providers the app wraps every screen in (app.tsx), with a router at `path`. */
export function Providers({ children, path = '/' }: { children: ReactNode; path?: string }) {
  return (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

/** Renders a screen or a form as the app would show it. */
export function renderScreen(ui: ReactNode, { path, ...options }: RenderOptions & { path?: string } = {}) {
  return render(ui, { wrapper: ({ children }) => <Providers path={path}>{children}</Providers>, ...options });
}
