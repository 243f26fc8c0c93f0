import { Command } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { Context, type GlobalOptions } from './context.js';
import { handleError } from './handle-error.js';
import { type CliIO, processIO } from './io.js';

/** `--fail-on dnc,voip --fail-on invalid`: commas and repeats both add to the list. */
function collectList(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((item) => item.trim())];
}

/** `--map a=1 --map b=2`: each repeat adds one. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * Commands are declared here and implemented in src/commands/, imported when they run, so that
 * `scrub --help` and `scrub --version` never load the SDK, zod, conf or cli-table3.
 */
export function createProgram(context: Context): Command {
  const { io } = context;
  const program = new Command('scrub')
    .description('Check US phone numbers for line type and do-not-call status.')
    .version(packageJson.version, '-v, --version', 'print the version')
    .option('--api-url <url>', 'the Scrub API (default: SCRUB_API_URL, the profile, http://localhost:8787)')
    .option('--profile <name>', 'the config profile (default: SCRUB_PROFILE, "default")')
    .option('--json', 'print JSON on stdout (errors as JSON on stderr)')
    .option('--no-input', 'never prompt; fail with a message instead')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // handleError prints every error, commander's included, so each is printed once and alike.
      outputError: () => {},
    })
    .exitOverride();

  program
    .command('plans')
    .description('list the plans and their prices')
    .option('--type <type>', 'only plans of one type: prepaid, postpaid or intro')
    .action(async (options: unknown) => {
      const { plans } = await import('./commands/plans.js');
      await plans(options, context);
    });

  program
    .command('check')
    .description(
      'check phone numbers for line type and do-not-call status (one credit per number; invalid ones are free)',
    )
    .argument('<phones...>', 'the numbers, or - to read them from stdin, one per line')
    .option('--csv', 'print CSV (a header, then a row per number) instead of a table')
    .option(
      '--fail-on <conditions>',
      'exit 5 when any answer is one of: dnc, invalid, mobile, landline, voip, toll_free, unknown_geographic (comma-separated or repeated)',
      collectList,
    )
    .option('--concurrency <n>', 'numbers checked at once, 1 to 64 (default 8)')
    .action(async (phones: string[], options: unknown) => {
      const { check } = await import('./commands/check.js');
      await check(phones, options, context);
    });

  program
    .command('bulk')
    .description(
      'scrub a CSV file: every row comes back with Line Type and DNC columns (one credit per unique number)',
    )
    .argument('<file>', 'the CSV file, or - to read it from stdin')
    .option(
      '--phone-col <column>',
      'the phone column: its header text, or its number counting from 1 (asked for at a terminal when left out)',
    )
    .option('--no-header', 'the file has no header row: its first row is a record')
    .option(
      '--map <field=column>',
      'map an optional column, by header text or number (repeatable); fields: first_name, last_name, full_name, business_name, email, street_address, street_address_2, city, state, postal_code, dob',
      collect,
    )
    .option('--name <name>', "the file name the dashboard shows (default: the file's name, or stdin.csv)")
    .option('--wait', 'wait for the job to end, then print the result CSV')
    .option('-o, --output <file>', 'with --wait: write the result CSV to this file, and the job to stdout')
    .option(
      '--line-type <types>',
      'with --wait: only rows of these line types, comma-separated: mobile, landline, voip, toll_free, unknown_geographic, invalid',
    )
    .option('--dnc <0|1>', 'with --wait: only clean rows (0) or only do-not-call rows (1)')
    .action(async (file: string, options: unknown) => {
      const { bulk } = await import('./commands/bulk.js');
      await bulk(file, options, context);
    });

  const jobs = program.command('jobs').description('bulk jobs: show one, or wait for it to end');
  jobs
    .command('show')
    .description('print a bulk job: status, rows, credits')
    .argument('<job_id>', 'the job id scrub bulk printed')
    .action(async (jobId: string) => {
      const { jobsShow } = await import('./commands/jobs.js');
      await jobsShow(jobId, context);
    });
  jobs
    .command('wait')
    .description('wait for a bulk job to end, then print it; exit 1 if it failed')
    .argument('<job_id>', 'the job id scrub bulk printed')
    .action(async (jobId: string) => {
      const { jobsWait } = await import('./commands/jobs.js');
      await jobsWait(jobId, context);
    });

  program
    .command('files')
    .description('list the files of your bulk jobs, newest first')
    .option('--search <text>', 'only files whose name contains this')
    .option('--page <n>', 'the page to show (default 1)')
    .option('--limit <n>', 'files per page, 1 to 100 (default 20)')
    .option('--all', 'every file of every page')
    .action(async (options: unknown) => {
      const { files } = await import('./commands/files.js');
      await files(options, context);
    });

  program
    .command('export')
    .description("download a bulk job's result CSV, filtered by line type and DNC")
    .argument('<file_reference>', 'the file reference, from scrub bulk or scrub files')
    .option(
      '--line-type <types>',
      'only rows of these line types, comma-separated: mobile, landline, voip, toll_free, unknown_geographic, invalid',
    )
    .option('--dnc <0|1>', 'only clean rows (0) or only do-not-call rows (1)')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option('--upload', 'download the file as it was uploaded instead of the result')
    .action(async (fileReference: string, options: unknown) => {
      const { exportFile } = await import('./commands/export.js');
      await exportFile(fileReference, options, context);
    });

  program
    .command('signup')
    .description('create an account; a 6-digit code is e-mailed to confirm it')
    .option('--email <email>', 'the e-mail address, which is also the sign-in name')
    .option('--name <name>', 'your name')
    .option('--password-stdin', 'read the password from stdin instead of asking for it')
    .action(async (options: unknown) => {
      const { signup } = await import('./commands/signup.js');
      await signup(options, context);
    });

  program
    .command('confirm')
    .description('confirm the e-mail address with the code from the sign-up e-mail')
    .option('--email <email>', 'the address signed up with')
    .option('--code <code>', 'the 6-digit code (asked for when left out at a terminal)')
    .option('--resend', 'e-mail a new code instead')
    .action(async (options: unknown) => {
      const { confirm } = await import('./commands/confirm.js');
      await confirm(options, context);
    });

  program
    .command('login')
    .description('sign in; the session is kept in the profile until it expires or scrub logout')
    .option('--email <email>', 'the e-mail address (asked for when left out at a terminal)')
    .option('--password-stdin', 'read the password from stdin instead of asking for it')
    .action(async (options: unknown) => {
      const { login } = await import('./commands/login.js');
      await login(options, context);
    });

  program
    .command('logout')
    .description("sign out: revoke the profile's session and remove it (a saved API key stays)")
    .option('--everywhere', 'end every session of the account, on every device')
    .action(async (options: unknown) => {
      const { logout } = await import('./commands/logout.js');
      await logout(options, context);
    });

  program
    .command('whoami')
    .description(
      'who the credentials in use belong to, their plan and credits, and which credentials they are',
    )
    .action(async () => {
      const { whoami } = await import('./commands/whoami.js');
      await whoami(context);
    });

  program
    .command('credits')
    .description('credits left, plan and subscription')
    .action(async () => {
      const { credits } = await import('./commands/credits.js');
      await credits(context);
    });

  const password = program.command('password').description('forgot, reset or change the password');
  password
    .command('forgot')
    .description('e-mail a code to reset a forgotten password')
    .option('--email <email>', 'the account e-mail address')
    .action(async (options: unknown) => {
      const { passwordForgot } = await import('./commands/password.js');
      await passwordForgot(options, context);
    });
  password
    .command('reset')
    .description('set a new password with the code from scrub password forgot')
    .option('--email <email>', 'the account e-mail address')
    .option('--code <code>', 'the 6-digit code (asked for when left out at a terminal)')
    .option('--password-stdin', 'read the new password from stdin instead of asking for it')
    .action(async (options: unknown) => {
      const { passwordReset } = await import('./commands/password.js');
      await passwordReset(options, context);
    });
  password
    .command('change')
    .description('change the signed-in password')
    .option('--password-stdin', 'read two lines from stdin: the current password, then the new one')
    .action(async (options: unknown) => {
      const { passwordChange } = await import('./commands/password.js');
      await passwordChange(options, context);
    });

  const key = program.command('key').description('the API key');
  key
    .command('rotate')
    .description('make a new API key, which invalidates the current one; prints it once and saves it')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--no-save', 'do not save the new key in the profile')
    .action(async (options: unknown) => {
      const { keyRotate } = await import('./commands/key.js');
      await keyRotate(options, context);
    });

  const config = program
    .command('config')
    .description('read and change saved settings: api_url, api_key, output (table or json)');
  config
    .command('get')
    .description('print one setting of the profile (api_key masked)')
    .argument('<key>', 'api_url, api_key or output')
    .action(async (key: string) => {
      const { configGet } = await import('./commands/config.js');
      await configGet(key, context);
    });
  config
    .command('set')
    .description('save one setting in the profile; api_key is read from stdin: set api_key -')
    .argument('<key>', 'api_url, api_key or output')
    .argument('<value>', 'the value, or - to read api_key from stdin')
    .action(async (key: string, value: string) => {
      const { configSet } = await import('./commands/config.js');
      await configSet(key, value, context);
    });
  config
    .command('list')
    .description("print the profile's settings as key=value (api_key masked)")
    .action(async () => {
      const { configList } = await import('./commands/config.js');
      await configList(context);
    });

  return program;
}

/** Runs one command line and returns the exit code; every failure goes through handleError. */
export async function run(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  const context = new Context(io, () => program.opts<GlobalOptions>());
  const program = createProgram(context);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    return handleError(error, context);
  }
}
