// Synthetic NPA reports for tests, in NANPA's real format: the shared report is not committed,
// and tests of broken files need files broken on purpose.

export const NPA_REPORT_COLUMNS = [
  'NPA_ID',
  'type_of_code',
  'ASSIGNABLE',
  'EXPLANATION',
  'RESERVED',
  'ASSIGNED',
  'ASSIGNMENT_DT',
  'USE',
  'LOCATION',
  'COUNTRY',
  'IN_SERVICE',
  'IN_SERVICE_DT',
  'STATUS',
  'PLANNING_LETTERS',
  'NOTES',
  'OVERLAY',
  'OVERLAY_COMPLEX',
  'PARENT_NPA_ID',
  'SERVICE',
  'TIME_ZONE',
  'AREA_SERVED',
  'MAP',
  'IN_JEOPARDY',
  'RELIEF_PLANNING_IN_PROGRESS',
  'HOME_NPA_LOCAL_CALLS',
  'HOME_NPA_TOLL_CALLS',
  'FOREIGN_NPA_LOCAL_CALLS',
  'FOREIGN_NPA_TOLL_CALLS',
  'PERM_HNPA_LOCAL_CALLS',
  'PERM_HNPA_TOLL_CALLS',
  'PERM_HNPA_FOREIGN_LOCAL_CALLS',
  'DIALING_PLAN_NOTES',
] as const;

export type NpaReportColumn = (typeof NPA_REPORT_COLUMNS)[number];
export type FixtureRow = Partial<Record<NpaReportColumn, string>>;

const UNASSIGNED: FixtureRow = {
  type_of_code: 'General Purpose Code',
  ASSIGNABLE: 'Yes',
  RESERVED: 'No',
  ASSIGNED: 'No',
  USE: 'G',
  IN_SERVICE: 'N',
  IN_JEOPARDY: 'No',
};

export function geographic(location: string, country: string): FixtureRow {
  return {
    ASSIGNED: 'Yes',
    ASSIGNMENT_DT: '01-Jan-1947',
    LOCATION: location,
    COUNTRY: country,
    IN_SERVICE: 'Y',
    IN_SERVICE_DT: '01-Jan-1947',
    TIME_ZONE: 'E',
  };
}

/** A handful of rows shaped like the real ones; every other code is unassigned. */
export const SAMPLE_ROWS: Record<number, FixtureRow> = {
  201: { ...geographic('NJ', 'US'), OVERLAY: 'Yes', OVERLAY_COMPLEX: '201/551', NOTES: '523 289 284 ' },
  204: geographic('MANITOBA', 'CANADA'),
  211: { ASSIGNABLE: 'No', EXPLANATION: 'N11 Code', USE: '' },
  370: { RESERVED: 'Yes', EXPLANATION: 'Reserved by INC', USE: '' },
  500: {
    ...geographic('NANP AREA', ''),
    USE: 'N',
    SERVICE: 'Non-Geographic Services',
    AREA_SERVED: 'Non-geographic services',
  },
  555: { ASSIGNABLE: 'No', EXPLANATION: 'Directory Assistance', USE: '' },
  787: { ...geographic('PR', 'US'), TIME_ZONE: 'A' },
  800: { ...geographic('NANP AREA', ''), USE: 'N', SERVICE: 'Toll-Free' },
  822: { ...geographic('', ''), USE: 'N', SERVICE: 'Toll-Free', IN_SERVICE: 'N', IN_SERVICE_DT: '' },
  876: geographic('JAMAICA', 'JAMAICA'),
  880: { RESERVED: 'Yes', EXPLANATION: 'Set aside for toll free', USE: 'N', SERVICE: 'Toll-Free' },
  900: { ...geographic('NANP AREA', ''), USE: 'N', SERVICE: 'Premium Services' },
  950: { ASSIGNABLE: 'No', EXPLANATION: 'Carrier Access', USE: '' },
  990: { RESERVED: 'Yes', EXPLANATION: 'Expansion Code', USE: '' },
};

/** What a row's file line is when nothing before it spans lines: after File Date and header. */
export function lineOf(npa: number): number {
  return npa - 200 + 3;
}

function csvField(value: string, oldStyle: boolean): string {
  if (oldStyle && value === '') return '""';
  return /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;
}

// Older copies write 01-JAN-47 where the current report writes 01-Jan-1947.
function oldStyleDate(value: string): string {
  const match = /^(\d{2})-([A-Za-z]{3})-\d{2}(\d{2})$/.exec(value);
  return match ? `${match[1]}-${match[2]!.toUpperCase()}-${match[3]}` : value;
}

export interface FixtureOptions {
  fileDate?: string;
  rows?: Record<number, FixtureRow>;
  oldStyle?: boolean;
}

/** A whole report, codes 200-999, CRLF line endings as NANPA publishes it. */
export function syntheticNpaReport({
  fileDate = '11/26/2025',
  rows = SAMPLE_ROWS,
  oldStyle = false,
}: FixtureOptions = {}): string {
  const lines = [`File Date,${fileDate}`, NPA_REPORT_COLUMNS.join(',')];
  for (let npa = 200; npa <= 999; npa++) {
    const row: FixtureRow = { ...UNASSIGNED, ...rows[npa], NPA_ID: String(npa) };
    const values = NPA_REPORT_COLUMNS.map((column) => {
      const value = row[column] ?? '';
      return csvField(oldStyle && column.endsWith('_DT') ? oldStyleDate(value) : value, oldStyle);
    });
    lines.push(values.join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
