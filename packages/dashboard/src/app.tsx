import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { loadScrub } from './api/load-scrub';
import { onPlanPaused, onSignedOut, queryClient } from './api/query-client';
import { sessionKey } from './auth/use-session';
import { routes } from './routes';
import { dropLoginStandIn } from './screens/auth/login-stand-in-takeover';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

const router = createBrowserRouter(routes);

// The Login stand-in (main.tsx) gives way when the page leaves /login before Login's screen took it
// over, or had left it before the app started (the stand-in's Forgot password and Sign up links):
// once the screen in its place is ready to show.
router.subscribe((state) => {
  if (state.initialized && state.location.pathname !== '/login') dropLoginStandIn();
});
if (router.state.initialized && router.state.location.pathname !== '/login') dropLoginStandIn();

// 401 or a session that cannot be refreshed: forget it and go to Login, unless already there.
onSignedOut(() => {
  void loadScrub()
    .then((scrub) => scrub.auth.signOut())
    .catch(() => undefined);
  queryClient.setQueryData(sessionKey, null);
  if (router.state.location.pathname !== '/login') void router.navigate('/login');
});

// A paused account refused a purchase or a check: the seeds' Account Confirmation modal offers to activate it.
onPlanPaused(() => {
  void import('./payments/account-status').then(({ openActivateModal }) => openActivateModal());
});

export function App() {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="light"
      cssVariablesResolver={cssVariablesResolver}
    >
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <RouterProvider router={router} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
