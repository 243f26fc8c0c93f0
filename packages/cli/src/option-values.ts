/** `--fail-on dnc,voip --fail-on invalid`: commas and repeats both add to the list. */
export function collectList(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((item) => item.trim())];
}

/** `--map a=1 --map b=2`: each repeat adds one. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
