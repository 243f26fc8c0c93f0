import {
  DEFAULT_CHANGE_LIST_LAYOUT,
  type FtcChangeListLayout,
  ImportError,
  type ImportMode,
  PHONE_HEADER_NAMES,
} from '@scrub/engine';
import { Command, InvalidArgumentError, Option } from 'commander';
import { loadConfig, type ServerConfig } from '../config/config.js';
import { runLocalOperation } from '../local-control/local-control.js';
import { findAccountOperation } from '../reference-data/account-lookup.js';
import {
  type CsvMapping,
  type ExchangeKind,
  type ImportOutcome,
  type ImportRequest,
  importData,
} from '../reference-data/data-import.js';
import { formatHistory, formatStatus, readHistory, readStatus } from '../reference-data/data-status.js';
import { DatasetStore } from '../reference-data/dataset-store.js';
import { type DatabaseHandle, openDatabase } from '../storage/database.js';
import { describe, outcomeJson, refusal } from './data-import-report.js';
import { CommandError, UsageError } from './handle-error.js';

export interface DataCommandIo {
  /** The settings (the environment's, by default). */
  config(): ServerConfig;
  /** Opens the database to find an internal list's account when no running server holds it. */
  open(config: ServerConfig): Promise<DatabaseHandle>;
  out(text: string): void;
  err(text: string): void;
  /** Colours in the status table. */
  color: boolean;
}

const defaultIo: DataCommandIo = {
  config: () => loadConfig(),
  open: (config) => openDatabase(config.database),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  color: process.stdout.isTTY === true && !process.env.NO_COLOR,
};

/** An import refused or impossible: the details are already printed, this is the last line. */
export class DataCommandError extends CommandError {
  constructor(message: string) {
    super(message, 1, 'import_refused');
    this.name = 'DataCommandError';
  }
}

interface CommonOptions {
  mode: ImportMode;
  version?: string;
  released?: string;
  ftcAccount?: string;
  maxProblems?: number;
  problems: number;
  json?: boolean;
}

interface CsvOptions extends CommonOptions {
  column: string;
  header?: boolean;
  delimiter: string;
}

interface ChangeListOptions extends CommonOptions {
  delimiter: string;
  areaCodeColumn: number | 'none';
  numberColumn: number;
  flagColumn: number | 'none';
  addFlags: string[];
  deleteFlags: string[];
  action?: 'add' | 'delete';
  header?: boolean;
}

function whole(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('a whole number');
  return n;
}

function positive(value: string): number {
  const n = whole(value);
  if (n < 1) throw new InvalidArgumentError('a whole number, at least 1');
  return n;
}

// `none` stays a word until the layout is built: commander turns a parser's null into ''.
function columnOrNone(value: string): number | 'none' {
  return value === 'none' ? value : whole(value);
}

const orNull = (column: number | 'none') => (column === 'none' ? null : column);

const flags = (value: string) => value.split(',').map((flag) => flag.trim());

function stateCode(value: string): string {
  if (!/^[A-Za-z]{2}$/.test(value)) throw new InvalidArgumentError('a 2-letter state code such as TX');
  return value.toUpperCase();
}

function withCommonOptions(command: Command, { lists }: { lists: boolean }): Command {
  command
    .addOption(
      new Option(
        '--mode <mode>',
        'strict: any bad row refuses the file; partial: bad rows are skipped and listed',
      )
        .choices(['strict', 'partial'])
        .default('strict'),
    )
    .option(
      '--version <version>',
      "the new version's name, such as the file's date (default: from the file)",
    );
  if (lists) {
    command.option(
      '--released <YYYY-MM-DD>',
      "required for ftc, ftc-changes and state, optional for list: the list's release date, as its publisher dated it (a do-not-call list's age counts from it)",
    );
    command.option(
      '--max-problems <n>',
      'partial mode: refuse the file past this many bad rows (default 1000)',
      positive,
    );
  }
  return command
    .option('--problems <n>', 'how many problems to print', whole, 20)
    .option('--json', 'print the report as JSON on stdout');
}

function withCsvOptions(command: Command): Command {
  return command
    .option('--column <column>', 'the column holding the number: its header name, or its 0-based index', '0')
    .option('--header', 'the first row is a header (the default when --column is a name)')
    .option('--no-header', 'the first row is data')
    .option('--delimiter <char>', 'the field separator', ',');
}

const FTC_ACCOUNT_HELP =
  "your organisation's FTC subscription account number (SAN) the files were downloaded under, recorded with the list and shown by data status (default: SCRUB_FTC_ACCOUNT)";

const EXCHANGE_DESCRIPTIONS: Record<ExchangeKind, string> = {
  'co-codes':
    "NANPA's CO code file (CoCodeAssignment_Utilized_AllStates_Public.txt: tab-delimited, latin1). Needs ocn-line-types too",
  'ocn-line-types': 'your OCN-to-line-type CSV (ocn,line_type). Needs co-codes too',
  'thousands-blocks':
    "the pooling administrator's thousands-block report (ThousandsBlockAssignment_All_Augmented.txt): blocks override their exchange",
  'number-overrides':
    'your CSV of numbers whose line type differs from their block (number,line_type), such as ported numbers',
};

/**
 * `scrub-server data import <kind> <file...>` and `scrub-server data status`: how an operator loads
 * real reference data. Imports run in this process, beside a running server, which picks the new
 * version up from the data directory (see ReferenceData.open).
 */
export function dataCommand(io: DataCommandIo = defaultIo): Command {
  const data = new Command('data').description(
    'Reference data: import exchange data and do-not-call lists, and see what the service answers from',
  );
  const importCommand = data
    .command('import')
    .description(
      'Import a file as a new version beside the live one; a running server switches to it within seconds. A refused file changes nothing.',
    );

  for (const kind of Object.keys(EXCHANGE_DESCRIPTIONS) as ExchangeKind[]) {
    withCommonOptions(importCommand.command(kind), { lists: false })
      .description(EXCHANGE_DESCRIPTIONS[kind])
      .argument('<file>', 'the file (unzipped)')
      .action((file: string, options: CommonOptions) =>
        runImport(io, { kind, files: [file], ...common(options) }, options),
      );
  }

  withCommonOptions(importCommand.command('ftc'), { lists: true })
    .description(
      "the FTC registry's full list: AAA,NNNNNNN per line, plain, gzip or zip. Replaces the federal list",
    )
    .argument('<file>', 'the download, zipped or not')
    .option('--ftc-account <SAN>', FTC_ACCOUNT_HELP)
    .action((file: string, options: CommonOptions) =>
      runImport(io, { kind: 'ftc', files: [file], ...common(options) }, options),
    );

  addFtcChangesCommand(importCommand, io);

  withCsvOptions(withCommonOptions(importCommand.command('state'), { lists: true }))
    .description("a state's do-not-call list, as CSV: replaces that state's list")
    .argument('<file>', 'the CSV (plain, gzip or zip)')
    .requiredOption('--state <XX>', 'the state, such as TX', stateCode)
    .action((file: string, options: CsvOptions & { state: string }) =>
      runImport(
        io,
        { kind: 'state', state: options.state, csv: csvMapping(options), files: [file], ...common(options) },
        options,
      ),
    );

  addInternalListCommand(importCommand, io);
  addOperatorListCommand(importCommand, io);

  withCommonOptions(importCommand.command('disconnects'), { lists: false })
    .description(
      'permanent disconnections, for reassigned-number checks: CSV of number,disconnect date (YYYY-MM-DD) per row. Replaces the live file',
    )
    .argument('<file>', 'the CSV (plain, gzip or zip)')
    .option(
      '--as-of <YYYY-MM-DD>',
      'required: the last day the file is complete to (later consent dates answer no data)',
    )
    .option('--from <YYYY-MM-DD>', 'the first day the file covers (default: its earliest disconnect date)')
    .option('--delimiter <char>', 'the field separator', ',')
    .action((file: string, options: CommonOptions & { asOf?: string; from?: string; delimiter: string }) =>
      runImport(
        io,
        {
          kind: 'disconnects',
          files: [file],
          delimiter: options.delimiter,
          ...(options.asOf === undefined ? {} : { asOf: options.asOf }),
          ...(options.from === undefined ? {} : { from: options.from }),
          ...common(options),
        },
        options,
      ),
    );

  data
    .command('status')
    .description('Each dataset the service answers from: version, source (imported or sample), size')
    .option('--json', 'print JSON (with the whole history the data directory keeps)')
    .option('--history <n>', 'how many of the last imports to list under the table', whole, 5)
    .action(async (options: { json?: boolean; history: number }) => {
      const config = io.config();
      const store = new DatasetStore(config.dataDir);
      const rows = await readStatus(store, { maxAgeDays: config.dncMaxAgeDays });
      const history = await readHistory(store);
      if (options.json) {
        io.out(`${JSON.stringify({ data_dir: config.dataDir, datasets: rows, history }, null, 2)}\n`);
        return;
      }
      const shown = [
        formatStatus(rows, io.color, config.dncMaxAgeDays),
        formatHistory(history, options.history),
      ];
      io.out(`${shown.filter((part) => part !== '').join('\n')}\n`);
    });

  return data;
}

/** `data import ftc-changes`: the change lists' layout varies by vendor, hence its options. */
function addFtcChangesCommand(importCommand: Command, io: DataCommandIo): void {
  withCommonOptions(importCommand.command('ftc-changes'), { lists: true })
    .description('FTC change lists (additions and deletions), applied in order to the live federal list')
    .argument('<files...>', 'one or more change lists, oldest first')
    .option('--ftc-account <SAN>', `${FTC_ACCOUNT_HELP} (default: the live list's)`)
    .option('--delimiter <char>', 'the field separator', DEFAULT_CHANGE_LIST_LAYOUT.delimiter)
    .option(
      '--area-code-column <column>',
      '0-based column of the area code; none when the number column holds all 10 digits',
      columnOrNone,
      DEFAULT_CHANGE_LIST_LAYOUT.areaCodeColumn,
    )
    .option(
      '--number-column <column>',
      'column of the 7 digits after the area code (or of all 10)',
      whole,
      DEFAULT_CHANGE_LIST_LAYOUT.numberColumn,
    )
    .option(
      '--flag-column <column>',
      'column of the add/delete flag; none for a file of only additions or only deletions (then --action)',
      columnOrNone,
      DEFAULT_CHANGE_LIST_LAYOUT.flagColumn,
    )
    .option('--add-flags <list>', 'flag values meaning added, comma-separated', flags, [
      ...DEFAULT_CHANGE_LIST_LAYOUT.addFlags,
    ])
    .option('--delete-flags <list>', 'flag values meaning deleted, comma-separated', flags, [
      ...DEFAULT_CHANGE_LIST_LAYOUT.deleteFlags,
    ])
    .addOption(
      new Option('--action <action>', 'what every row does when there is no flag column').choices([
        'add',
        'delete',
      ]),
    )
    .option('--header', 'skip the first line')
    .action((files: string[], options: ChangeListOptions) => {
      const layout: FtcChangeListLayout = {
        delimiter: options.delimiter,
        areaCodeColumn: orNull(options.areaCodeColumn),
        numberColumn: options.numberColumn,
        flagColumn: orNull(options.flagColumn),
        addFlags: options.addFlags,
        deleteFlags: options.deleteFlags,
        header: options.header ?? false,
        ...(options.action ? { action: options.action } : {}),
      };
      if (layout.flagColumn === null && layout.action === undefined) {
        throw new UsageError('--flag-column none needs --action add or --action delete.');
      }
      return runImport(io, { kind: 'ftc-changes', files, layout, ...common(options) }, options);
    });
}

/** `data import internal`: the list belongs to one account, found by e-mail or profile id. */
function addInternalListCommand(importCommand: Command, io: DataCommandIo): void {
  withCsvOptions(withCommonOptions(importCommand.command('internal'), { lists: true }))
    .description(
      "an account's own suppression list, as CSV: replaces that account's list; only its checks consult it",
    )
    .argument('<file>', 'the CSV (plain, gzip or zip)')
    .requiredOption('--account <account>', "the account's e-mail (or its profile id)")
    .action(async (file: string, options: CsvOptions & { account: string }) => {
      const config = io.config();
      // Through the running server when it holds the embedded database; otherwise directly.
      const found = await runLocalOperation(
        config,
        findAccountOperation,
        { account: options.account },
        { open: io.open },
      );
      if (found.sameEmail > 0) {
        io.err(
          `${found.sameEmail + 1} accounts have the e-mail ${found.email}: the list is for the newest (${found.id}).\n`,
        );
      }
      const account = { id: found.id, email: options.account.includes('@') ? found.email : null };
      await runImport(
        io,
        { kind: 'internal', account, csv: csvMapping(options), files: [file], ...common(options) },
        options,
      );
    });
}

/** `data import list --name litigators`: an operator's flag list, checked where customers count it. */
function addOperatorListCommand(importCommand: Command, io: DataCommandIo): void {
  withCommonOptions(importCommand.command('list'), { lists: true })
    .description(
      "a list of your own beside the do-not-call lists (known litigators, a vendor's list), as CSV: replaces the list of that name. Customers choose which lists count; a hit is a flag, never DNC",
    )
    .argument('<file>', 'the CSV (plain, gzip or zip): a phone column, or one number per line')
    .requiredOption('--name <name>', "the list's name: lowercase letters, digits and dashes (litigators)")
    .option(
      '--column <column>',
      `the column holding the number: its header name, or its 0-based index (default: the column headed ${PHONE_HEADER_NAMES.slice(0, 5).join(', ')}... or else the first holding a number)`,
    )
    .option('--header', 'the first row is a header')
    .option('--no-header', 'the first row is data')
    .option('--delimiter <char>', 'the field separator', ',')
    .action((file: string, options: Partial<CsvOptions> & CommonOptions & { name: string }) => {
      const csv =
        options.column === undefined
          ? { delimiter: options.delimiter }
          : csvMapping({ ...options, column: options.column } as CsvOptions);
      return runImport(
        io,
        { kind: 'list', name: options.name, csv, files: [file], ...common(options) },
        options,
      );
    });
}

function common(options: CommonOptions) {
  return {
    mode: options.mode,
    ...(options.version === undefined ? {} : { version: options.version }),
    ...(options.maxProblems === undefined ? {} : { maxProblems: options.maxProblems }),
    ...(options.released === undefined ? {} : { releasedOn: options.released }),
    ...(options.ftcAccount === undefined ? {} : { ftcAccount: options.ftcAccount }),
  };
}

function csvMapping(options: CsvOptions): CsvMapping {
  const column = /^\d+$/.test(options.column) ? Number(options.column) : options.column;
  return {
    column,
    delimiter: options.delimiter,
    ...(options.header === undefined ? {} : { header: options.header }),
  };
}

async function runImport(io: DataCommandIo, asked: ImportRequest, options: CommonOptions): Promise<void> {
  const config = io.config();
  const store = new DatasetStore(config.dataDir);
  const { ftcAccount } = config.registryInbox;
  const federal = asked.kind === 'ftc' || asked.kind === 'ftc-changes';
  const request =
    federal && asked.ftcAccount === undefined && ftcAccount !== null ? { ...asked, ftcAccount } : asked;
  let outcome: ImportOutcome;
  try {
    outcome = await importData(store, request, () =>
      io.err('Another import is running on this data directory: waiting for it to finish...\n'),
    );
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    if (options.json) {
      io.out(
        `${JSON.stringify({ status: 'refused', source: error.source, problems: error.problems }, null, 2)}\n`,
      );
    }
    io.err(refusal(error, request, options.problems));
    throw new DataCommandError(
      'Import refused: nothing was imported, and the data the service answers from is unchanged.',
    );
  }
  io.out(
    options.json
      ? `${JSON.stringify(outcomeJson(outcome, options.problems), null, 2)}\n`
      : describe(outcome, options.problems),
  );
}
