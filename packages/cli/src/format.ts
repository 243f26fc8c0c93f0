/** `1,200`: counts as the dashboard shows them. */
export const count = (n: number) => n.toLocaleString('en-US');

/** "Unlimited", or the count with thousands separators, as the dashboard shows credits. */
export function formatCredits(remaining: number | 'unlimited'): string {
  return remaining === 'unlimited' ? 'Unlimited' : count(remaining);
}

/** Aligned `label  value` lines, for people; --json is for scripts. */
export function formatPairs(pairs: [string, string][]): string {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${label.padEnd(width)}  ${value}\n`).join('');
}

/** A cell of tab-separated output, for `cut` and `awk`: its own tabs and line breaks must not shift the columns. */
export const oneCell = (text: string) => text.replace(/[\t\r\n]/g, ' ');
