// Synthetic exchange data for tests, in the real formats: no real exchange data is committed.
// Carriers, OCNs (9xxx) and company names are made up. One story runs through the files:
//
//   201-234  OCN 9001 mobile               201-236-5XXX block  OCN 9001 mobile
//   201-235  OCN 9002 landline             201-236-6XXX block  OCN 9002 landline
//   201-236  OCN 9003 voip, pooled         201-234-9XXX block  OCN 9009 (not in the OCN list)
//   201-237  OCN 9009 (not in the OCN list)
//   201-238  OCN 9002, not in service yet  201-236-5000 number landline (over its block)
//   212-736  OCN 9002 landline             201-234-0001 number voip (over its exchange)
//
// Every other exchange of 201 and 212 is unassigned; area codes without rows are not covered.
import { Readable } from 'node:stream';

/** A stream of the text's bytes in the given encoding, in small chunks to cross chunk boundaries. */
export function streamOf(text: string, encoding: 'latin1' | 'utf8' = 'utf8', chunkSize = 64): Readable {
  const bytes = Buffer.from(text, encoding);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += chunkSize) chunks.push(bytes.subarray(at, at + chunkSize));
  return Readable.from(chunks);
}

export const OCN_LINE_TYPES_CSV = `ocn,line_type,company
9001,mobile,Synthetic Wireless LLC
9002,LANDLINE,Synthetic Telephone Co
9003,voip,Synthetic Voice Inc
9004,PCS,Synthetic PCS
9005,CLEC,"Synthetic Exchange, Inc."
9006,IPES,Synthetic Cloud
`;

export const CO_CODE_COLUMNS = [
  'State',
  'NPA-NXX',
  'OCN',
  'Company',
  'RateCenter',
  'EffectiveDate',
  'Use',
  'AssignDate',
  'Initial/Growth',
  'Pooled Code',
  'In Service',
];

/**
 * A CO code file row as NANPA writes it: tab-delimited, fields padded with spaces, a company name
 * that may hold commas, quotes or latin1 letters.
 */
export function coCodeRow(
  npaNxx: string,
  ocn: string,
  company: string,
  {
    inService = 'Y',
    pooled = 'N',
    state = 'NJ',
  }: { inService?: string; pooled?: string; state?: string } = {},
): string {
  return [
    state.padEnd(2),
    npaNxx,
    ocn.padEnd(4),
    company.padEnd(40),
    'SYNTHETICVL'.padEnd(10),
    '01/01/2001',
    'AS',
    '12/01/2000',
    'I',
    pooled,
    inService,
  ].join('\t');
}

export const CO_CODE_HEADER = `${CO_CODE_COLUMNS.join('\t')}\tFile Updated 11/26/2025`;

export const CO_CODE_FILE = `${[
  CO_CODE_HEADER,
  coCodeRow('201-234', '9001', 'SYNTHETIC WIRELESS LLC'),
  coCodeRow('201-235', '9002', 'TÉLÉPHONE SYNTHÉTIQUE DU NORD, INC.'),
  coCodeRow('201-236', '9003', 'SYNTHETIC "BEST" VOICE', { pooled: 'Y' }),
  coCodeRow('201-237', '9009', '"SYNTHETIC UNLISTED, INC."'),
  coCodeRow('201-238', '9002', 'TÉLÉPHONE SYNTHÉTIQUE DU NORD, INC.', { inService: 'N' }),
  coCodeRow('212-736', '9002', 'SYNTHETIC TELEPHONE CO', { state: 'NY' }),
].join('\r\n')}\r\n`;

export const THOUSANDS_BLOCK_COLUMNS = [
  'Region',
  'State',
  'NPA',
  'NXX',
  'X',
  'Status',
  'Effective Date',
  'Rate Center',
  'OCN',
  'Company',
];

export function blockRow(npa: string, nxx: string, x: string, ocn: string, status = 'AS'): string {
  return [
    'Northeast',
    'NJ',
    npa,
    nxx,
    x,
    status,
    '01/01/2020',
    'SYNTHETICVL',
    ocn,
    '"Synthetic Carrier, Inc."',
  ].join(',');
}

export const THOUSANDS_BLOCK_FILE = `${[
  THOUSANDS_BLOCK_COLUMNS.join(','),
  blockRow('201', '236', '5', '9001'),
  blockRow('201', '236', '6', '9002'),
  blockRow('201', '234', '9', '9009'),
  // In the pool, not assigned: read, not used.
  blockRow('201', '236', '7', '9003', 'AV'),
].join('\n')}\n`;

export const NUMBER_OVERRIDES_CSV = `number,line_type
(201) 236-5000,landline
+1 201 234 0001,VoIP
`;
