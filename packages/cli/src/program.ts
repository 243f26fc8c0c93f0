/**
 * The `scrub` program: a list of commands.
 *
 * Where things live:
 * - `commands/<name>.ts` declares one command: its arguments, options and help text, as a
 *   commander `Command` built by `<name>Command(context)`; its subcommands too (`jobs show`).
 *   It imports commander only.
 * - `actions/<name>.ts` does the work: it checks the options with zod (whole-sentence messages,
 *   usage errors exit 2) and calls the SDK. A command imports its action with `import()` when it
 *   runs, so `scrub --help` and `scrub --version` load neither the SDK, zod, conf nor cli-table3
 *   (`lazy-loading.test.ts` keeps it so).
 * - What several actions share has a module of its own beside this file: credentials
 *   (`credentials.ts`), output (`format.ts`, `table.ts`, `job-output.ts`), result filters
 *   (`result-filters.ts`), option values (`option-values.ts`). Commands and actions never import
 *   each other, nor this file: a command that runs another (`scrub admin as`) is handed `run` in
 *   its context (`context.runCommand`).
 */
import { Command } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { accountCommand } from './commands/account.js';
import { adminCommand } from './commands/admin.js';
import { bulkCommand } from './commands/bulk.js';
import { buyCommand } from './commands/buy.js';
import { cardCommand } from './commands/card.js';
import { completionCommand } from './commands/completion.js';
import { configCommand } from './commands/config.js';
import { confirmCommand } from './commands/confirm.js';
import { creditsCommand } from './commands/credits.js';
import { exportCommand } from './commands/export.js';
import { filesCommand } from './commands/files.js';
import { jobsCommand } from './commands/jobs.js';
import { keyCommand } from './commands/key.js';
import { logCommand } from './commands/log.js';
import { loginCommand } from './commands/login.js';
import { logoutCommand } from './commands/logout.js';
import { passwordCommand } from './commands/password.js';
import { plansCommand } from './commands/plans.js';
import { proofCommand } from './commands/proof.js';
import { purchasesCommand } from './commands/purchases.js';
import { signupCommand } from './commands/signup.js';
import { subscriptionCommand } from './commands/subscription.js';
import { suppressionCommand } from './commands/suppression.js';
import { uploadExistingCommand } from './commands/upload-existing.js';
import { usageCommand } from './commands/usage.js';
import { verifyCommand } from './commands/verify.js';
import { webhooksCommand } from './commands/webhooks.js';
import { Context, type GlobalOptions } from './context.js';
import { handleError } from './handle-error.js';
import { addHelpExamples } from './help-examples.js';
import { type CliIO, processIO } from './io.js';

/**
 * `addCommand`, unlike `command()`, copies none of the parent's settings: give each command and its
 * subcommands the program's output, exit override and help settings, so every error reaches handleError.
 */
function inheritSettings(command: Command, parent: Command): Command {
  command.copyInheritedSettings(parent);
  for (const subcommand of command.commands) inheritSettings(subcommand, command);
  return command;
}

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

  const commands = [
    plansCommand,
    buyCommand,
    cardCommand,
    subscriptionCommand,
    purchasesCommand,
    verifyCommand,
    bulkCommand,
    uploadExistingCommand,
    jobsCommand,
    filesCommand,
    exportCommand,
    logCommand,
    usageCommand,
    webhooksCommand,
    suppressionCommand,
    proofCommand,
    signupCommand,
    confirmCommand,
    loginCommand,
    logoutCommand,
    accountCommand,
    creditsCommand,
    passwordCommand,
    keyCommand,
    configCommand,
    adminCommand,
    completionCommand,
  ];
  for (const command of commands) program.addCommand(inheritSettings(command(context), program));
  addHelpExamples(program);
  return program;
}

/** Runs one command line and returns the exit code; every failure goes through handleError. */
export async function run(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  const context = new Context(io, () => program.opts<GlobalOptions>(), run);
  const program = createProgram(context);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    return handleError(error, context);
  }
}
