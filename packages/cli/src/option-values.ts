/** `--fail-on dnc,voip --fail-on invalid`: commas and repeats both add to the list. */
export function collectList(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((item) => item.trim())];
}

/** `--map a=1 --map b=2`: each repeat adds one. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * `--lists litigators,vendor-x`: the operator lists to count (repeats add to it); `--lists ''` for
 * none, over the account's default.
 */
export function collectListNames(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((name) => name.trim())].filter((name) => name !== '');
}

export const LISTS_OPTION_HELP =
  "operator lists to flag numbers with (known litigators...), comma-separated, instead of your account's default (`scrub account lists`); '' for none";

/** The `--callable-now` help line, one wording for `scrub export` and `scrub bulk`. */
export const CALLABLE_NOW_OPTION_HELP =
  'only rows inside (1) or outside (0) the calling window when the file was scrubbed; the result needs the callable_now column (scrub bulk --columns callable_now)';
