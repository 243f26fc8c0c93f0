import { dayStart } from '../reference-data/dnc-age.js';

/** What a file dropped in the registry inbox is, read from its name. */
export type InboxFileKind = { kind: 'ftc' } | { kind: 'ftc-changes' } | { kind: 'state'; state: string };

export type InboxFileName = InboxFileKind & {
  /** The release date the name carries (`YYYY-MM-DD`). */
  releasedOn: string;
  /** The FTC subscription account number (SAN) the name carries (`-san-<SAN>`), if any. */
  ftcAccount: string | null;
};

/**
 * `ftc-full-2026-11-20.csv`, `ftc-changes-2026-11-21-san-12345.txt`, `state-TX-2026-11-01.csv.gz`:
 * the kind, the release date, an optional subscription account number, then any of `.csv`/`.txt`
 * and `.gz`/`.zip`.
 */
const NAME =
  /^(ftc-full|ftc-changes|state-([A-Za-z]{2}))-(\d{4}-\d{2}-\d{2})(?:-san-([A-Za-z0-9-]{1,32}))?(?:\.(?:csv|txt))?(?:\.(?:gz|zip))?$/i;

export const NAME_RULE =
  'name it ftc-full-YYYY-MM-DD.csv, ftc-changes-YYYY-MM-DD.csv or state-XX-YYYY-MM-DD.csv (the release date; optionally -san-<account number> before the extension; .txt, .gz and .zip work too)';

/** A file the inbox does not look at (yet): hidden or still being written under a temporary name. */
export function isInProgress(name: string): boolean {
  return name.startsWith('.') || /\.(part|tmp|partial|crdownload)$/i.test(name);
}

/** The file's kind and date, or why its name does not say them. */
export function readInboxFileName(name: string): InboxFileName | { problem: string } {
  const match = NAME.exec(name);
  if (match === null)
    return { problem: `The name ${JSON.stringify(name)} does not say what the file is: ${NAME_RULE}.` };
  const [, kind, state, releasedOn, san] = match as unknown as [
    string,
    string,
    string | undefined,
    string,
    string | undefined,
  ];
  if (Number.isNaN(dayStart(releasedOn))) {
    return { problem: `The name ${JSON.stringify(name)} carries ${releasedOn}, which is not a date.` };
  }
  const ftcAccount = san ?? null;
  const lower = kind.toLowerCase();
  if (lower === 'ftc-full') return { kind: 'ftc', releasedOn, ftcAccount };
  if (lower === 'ftc-changes') return { kind: 'ftc-changes', releasedOn, ftcAccount };
  if (ftcAccount !== null) {
    return {
      problem: `The name ${JSON.stringify(name)} carries an FTC account number, but a state list has none.`,
    };
  }
  return { kind: 'state', state: state!.toUpperCase(), releasedOn, ftcAccount };
}

/** The order files are imported in: by release date; on one day, the full list before its changes. */
export function importOrder(a: { name: string; file: InboxFileName | null }, b: typeof a): number {
  const rank = (file: InboxFileName | null) =>
    file === null
      ? '9999-99-99 9'
      : `${file.releasedOn} ${file.kind === 'ftc' ? 0 : file.kind === 'ftc-changes' ? 1 : 2}`;
  return rank(a.file).localeCompare(rank(b.file)) || a.name.localeCompare(b.name);
}
