import { spawn } from 'node:child_process';

/** Opens a URL in the person's browser; a failure only means they open the printed link themselves. */
export function openInBrowser(url: string): void {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
  child.on('error', () => {});
  child.unref();
}
