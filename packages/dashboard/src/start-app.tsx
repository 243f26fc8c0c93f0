import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';

/** React, Mantine and the shell: loaded by main.tsx, after the Login stand-in has shown (if it shows). */
export function startApp(root: HTMLElement): void {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
