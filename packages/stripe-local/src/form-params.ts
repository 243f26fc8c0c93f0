import type { FormObject, FormValue } from './form-body.js';
import { invalidRequest, missingParam } from './stripe-error.js';

/** Typed reads of a parsed Stripe request, refusing what Stripe refuses with its own wording. */
export class FormParams {
  constructor(
    readonly raw: FormObject,
    private readonly prefix = '',
  ) {}

  private name(key: string) {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  has(key: string): boolean {
    return this.raw[key] !== undefined;
  }

  /** `key=` (empty) is Stripe's way to unset a field. */
  isEmpty(key: string): boolean {
    return this.raw[key] === '';
  }

  string(key: string): string | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw invalidRequest(`Invalid string: ${this.name(key)}`, this.name(key));
    return value;
  }

  requiredString(key: string): string {
    const value = this.string(key);
    if (!value) throw missingParam(this.name(key));
    return value;
  }

  integer(key: string): number | undefined {
    const value = this.string(key);
    if (value === undefined || value === '') return undefined;
    if (!/^-?\d+$/.test(value))
      throw invalidRequest(`Invalid integer: ${value}`, this.name(key), 'parameter_invalid_integer');
    return Number(value);
  }

  boolean(key: string): boolean | undefined {
    const value = this.string(key);
    if (value === undefined || value === '') return undefined;
    if (value !== 'true' && value !== 'false')
      throw invalidRequest(`Invalid boolean: ${value}`, this.name(key));
    return value === 'true';
  }

  object(key: string): FormParams | undefined {
    const value = this.raw[key];
    if (value === undefined || value === '') return undefined;
    if (typeof value === 'string' || Array.isArray(value)) {
      throw invalidRequest(`Invalid object: ${this.name(key)}`, this.name(key));
    }
    return new FormParams(value, this.name(key));
  }

  array(key: string): FormValue[] {
    const value = this.raw[key];
    if (value === undefined || value === '') return [];
    if (!Array.isArray(value)) throw invalidRequest(`Invalid array: ${this.name(key)}`, this.name(key));
    return value;
  }

  strings(key: string): string[] {
    return this.array(key).map((v) => {
      if (typeof v !== 'string') throw invalidRequest(`Invalid array: ${this.name(key)}`, this.name(key));
      return v;
    });
  }

  objects(key: string): FormParams[] {
    return this.array(key).map((v, i) => {
      if (typeof v === 'string' || Array.isArray(v))
        throw invalidRequest(`Invalid array: ${this.name(key)}`, this.name(key));
      return new FormParams(v, `${this.name(key)}[${i}]`);
    });
  }

  /** Metadata as Stripe merges it: given keys set, empty values delete, `metadata=` clears all. */
  metadata(current: Record<string, string> = {}): Record<string, string> {
    if (this.isEmpty('metadata')) return {};
    const given = this.object('metadata');
    if (!given) return current;
    const next = { ...current };
    for (const [k, v] of Object.entries(given.raw)) {
      if (typeof v !== 'string') throw invalidRequest(`Invalid metadata: ${k}`, `metadata[${k}]`);
      if (v === '') delete next[k];
      else next[k] = v;
    }
    if (Object.keys(next).length > 50) throw invalidRequest('Metadata may have at most 50 keys.', 'metadata');
    return next;
  }

  /** A flat object of strings (an address, billing details), keeping only the keys Stripe knows. */
  record(key: string, known: readonly string[]): Record<string, string | null> | undefined {
    const value = this.object(key);
    if (!value) return undefined;
    return Object.fromEntries(known.map((k) => [k, value.string(k) || null]));
  }
}
