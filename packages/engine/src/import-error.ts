export interface ImportProblem {
  /** 1-based line in the imported file. */
  line: number;
  message: string;
}

const PROBLEMS_IN_MESSAGE = 10;

/**
 * A reference-data file that cannot be trusted. Every import either yields a complete table or
 * throws this, listing what is wrong and where, so an operator can fix the file rather than ship
 * a silently wrong table.
 */
export class ImportError extends Error {
  readonly code = 'invalid_import_file';
  readonly source: string;
  readonly problems: readonly ImportProblem[];

  constructor(source: string, problems: readonly ImportProblem[]) {
    const shown = problems.slice(0, PROBLEMS_IN_MESSAGE).map((p) => `  line ${p.line}: ${p.message}`);
    const more =
      problems.length > PROBLEMS_IN_MESSAGE ? [`  ...and ${problems.length - PROBLEMS_IN_MESSAGE} more`] : [];
    const noun = problems.length === 1 ? 'problem' : 'problems';
    super([`${source}: ${problems.length} ${noun}`, ...shown, ...more].join('\n'));
    this.name = 'ImportError';
    this.source = source;
    this.problems = problems;
  }
}
