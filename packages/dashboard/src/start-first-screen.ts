import { preloadFirstScreen } from './first-screen';

// A module of its own, imported first by main.tsx: ES modules run their imports' bodies before
// their own, so this runs before React and the shell are evaluated (see first-screen.ts).
preloadFirstScreen(window.location.pathname);
