/**
 * The screens a visitor lands on first (Login, and Welcome at `/`), as chunks asked for the moment
 * the entry script starts to run: imported first by `main.tsx`, this module runs before React and
 * the shell are even evaluated, so the screen's chunk and its pieces download while they are, not
 * after React has rendered the shell and reached the route (`React.lazy` waits for that). The
 * route table's `lazy` screens use the same functions, so a chunk is fetched once.
 */
export const loadLoginPage = () => import('./screens/auth/login-page');
export const loadWelcomePage = () => import('./screens/welcome/welcome-page');

const FIRST_SCREENS: Record<string, () => Promise<unknown>> = {
  '/login': loadLoginPage,
  '/': loadWelcomePage,
  '/home': loadWelcomePage,
};

/** Starts the download of the screen at `pathname`, when it is one of the first screens. */
export function preloadFirstScreen(pathname: string): void {
  // A failed download is retried by the route itself, which shows its own error.
  FIRST_SCREENS[pathname]?.().catch(() => undefined);
}
