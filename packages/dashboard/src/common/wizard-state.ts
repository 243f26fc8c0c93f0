import type { MappableFieldSchema } from '@scrub/contract';
import type { z } from 'zod';
import type { CsvPreview } from '../csv/preview';

export type MappableField = z.infer<typeof MappableFieldSchema>;

/** A column is kept as its 0-based position (as text, for the selects); '' means Do Not Map. */
export interface ColumnMapping {
  phone_col: string;
  mapping: Partial<Record<MappableField, string>>;
  /**
   * The column of the dates on which each number's owner gave consent (the bulk option
   * `consent_col`): each number is then checked for a permanent disconnection since that date.
   */
  consent_col?: string;
  /** The result names the mapped columns with the standard headers (the bulk option `mapped_headers`). */
  mapped_headers?: boolean;
}

export interface WizardFile {
  file: File;
  preview: CsvPreview;
  headerRow: boolean;
}

/** The wizard's labels for the contract's optional columns, in the seed's order. */
export const fieldLabels: Record<MappableField, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  full_name: 'Full name',
  business_name: 'Business name',
  email: 'Email',
  street_address: 'Street address',
  street_address_2: 'Street address 2',
  city: 'City',
  state: 'State',
  postal_code: 'Postal code',
  dob: 'DOB',
};
