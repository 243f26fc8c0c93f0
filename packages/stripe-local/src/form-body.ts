/** A value of a Stripe request: `a=1`, `a[b]=1`, `a[]=1&a[]=2` or `a[0]=1` (the `stripe` SDK's arrays). */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** The key path of one field: `items[0][price]` is `['items', '0', 'price']`, `expand[]` is `['expand', '']`. */
function pathOf(name: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  if (!match) return null;
  const rest = [...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? '');
  return [match[1]!, ...rest];
}

/** Objects whose keys are all indexes become arrays, in index order. */
function arraysOf(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((k) => [k, arraysOf(value[k]!)]));
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => converted[k]!);
  }
  return converted;
}

/**
 * Parses `application/x-www-form-urlencoded` the way Stripe reads it (also used for query strings):
 * nested objects by brackets, `[]` appends, numeric indexes make arrays. Throws on a malformed name
 * or a name used both as a value and as an object.
 */
export function parseForm(body: string): FormObject {
  const root: { [key: string]: FormValue } = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const path = pathOf(name);
    if (!path || path.some((part) => FORBIDDEN.has(part))) throw new FormError(name);
    let node: { [key: string]: FormValue } | FormValue[] = root;
    for (let i = 0; i < path.length; i++) {
      const part = path[i]!;
      const last = i === path.length - 1;
      if (Array.isArray(node)) {
        if (part !== '') throw new FormError(name);
        if (last) node.push(value);
        else {
          const child = {};
          node.push(child);
          node = child;
        }
        continue;
      }
      if (last) {
        if (part === '') throw new FormError(name);
        if (node[part] !== undefined && typeof node[part] !== 'string') throw new FormError(name);
        node[part] = value;
        continue;
      }
      const nextIsAppend = path[i + 1] === '';
      const existing: FormValue | undefined = node[part];
      if (existing === undefined) node[part] = nextIsAppend ? [] : {};
      else if (typeof existing === 'string' || Array.isArray(existing) !== nextIsAppend)
        throw new FormError(name);
      node = node[part] as { [key: string]: FormValue } | FormValue[];
    }
  }
  return arraysOf(root) as FormObject;
}

export class FormError extends Error {
  constructor(readonly param: string) {
    super(`Invalid parameter name: ${param}`);
  }
}
