// First: the first screen's chunk is asked for before React and the shell are evaluated.
import './start-first-screen';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dropzone/styles.css';
import { mayBeSignedIn } from './auth/stored-session-hint';
import { showLoginStandIn } from './screens/auth/login-stand-in';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// A visitor with no stored sign-in, on Login without a message to show: the plain-DOM form at once,
// the app (React, Mantine, the shell) downloaded and run after it, taking over the form's values.
const url = new URL(window.location.href);
if (url.pathname === '/login' && !url.searchParams.has('message') && !mayBeSignedIn()) showLoginStandIn(root);
void import('./start-app').then(({ startApp }) => startApp(root));
