import type { Command } from 'commander';

/**
 * The examples `scrub <command> --help` ends with, one entry per command path (a test checks every
 * command has one, and that each example names its own command). Written as a user would type them.
 */
export const HELP_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  scrub: [
    'scrub login --email pat@example.com',
    'scrub verify 2015550123 "(201) 555-0124"',
    'scrub bulk leads.csv --phone-col Phone --wait -o scrubbed.csv',
  ],
  plans: ['scrub plans', 'scrub plans --type prepaid', 'scrub --json plans'],
  buy: ['scrub buy "FLEXIBLE CREDITS" --amount 50', 'scrub buy 79541679412213 --amount 10 --yes'],
  card: [
    'scrub card list',
    'scrub card add',
    'scrub card default "$CARD_ID"',
    'scrub card remove "$CARD_ID"',
  ],
  'card list': ['scrub card list', 'scrub --json card list'],
  'card add': ['scrub card add'],
  'card default': ['scrub card default "$CARD_ID"'],
  'card remove': ['scrub card remove "$CARD_ID"'],
  subscription: ['scrub subscription show', 'scrub subscription start STANDARD', 'scrub subscription pause'],
  'subscription show': ['scrub subscription show'],
  'subscription start': ['scrub subscription start STANDARD', 'scrub subscription start POWER --yes'],
  'subscription switch': ['scrub subscription switch ELITE'],
  'subscription pause': ['scrub subscription pause'],
  'subscription resume': ['scrub subscription resume'],
  'subscription cancel': ['scrub subscription cancel --yes'],
  purchases: [
    'scrub purchases',
    'scrub purchases --year 2026 --month 11',
    'scrub --json purchases --limit 100',
  ],
  verify: [
    'scrub verify 2015550123',
    'scrub verify 2015550123 +12125550199 --csv',
    'cut -d, -f3 leads.csv | scrub verify - --fail-on dnc,invalid',
    'scrub verify 2015550123 --lists litigators',
  ],
  bulk: [
    'scrub bulk leads.csv --phone-col Phone',
    'scrub bulk leads.csv --phone-col 3 --wait -o scrubbed.csv',
    'scrub bulk leads.csv --phone-col Phone --wait --line-type mobile --dnc 0 > callable.csv',
    'cat leads.csv | scrub bulk - --phone-col Phone --name leads.csv --yes',
    'cat leads.csv | scrub bulk - --phone-col Phone --wait > scrubbed.csv',
    'scrub bulk leads.csv --phone-col Phone --columns timezone,callable_now --wait > with-zones.csv',
    'scrub bulk leads.csv --phone-col Phone --wait --fail-on dnc,unchecked -o scrubbed.csv',
    'scrub bulk leads.csv --phone-col Phone --lists litigators --wait > flagged.csv',
  ],
  'upload-existing': [
    'scrub upload-existing scrubbed.csv --phone-col Phone --line-type-col "Line Type"',
    'scrub upload-existing vendor.csv --phone-col 2 --line-type-col 5 --dnc-col 6 --name "Vendor list"',
    'scrub upload-existing - --phone-col Phone --line-type-col "Line Type" < scrubbed.csv',
  ],
  jobs: ['scrub jobs show "$JOB_ID"', 'scrub jobs wait "$JOB_ID"'],
  'jobs show': ['scrub jobs show "$JOB_ID"', 'scrub --json jobs show "$JOB_ID"'],
  'jobs wait': ['scrub jobs wait "$JOB_ID" > scrubbed.csv'],
  log: [
    'scrub log',
    'scrub log --dnc 1 --from 2026-11-01 --to 2026-11-30',
    'scrub --json log --number 2015550123',
    'scrub log --source api_key --csv -o checks.csv',
  ],
  usage: [
    'scrub usage',
    'scrub usage --interval week --from 2026-09-01 --to 2026-11-30',
    'scrub --json usage --account "$CLIENT_ID"',
    'scrub usage --csv -o usage.csv',
  ],
  files: ['scrub files', 'scrub files --search leads --limit 50', 'scrub --json files --all'],
  'files delete': ['scrub files delete Kq3vX0m1yJ8aT2pQ7rL4sN6uW9zB5cDe', 'scrub files delete REF --yes'],
  proof: ['scrub proof "$FILE_REF" -o leads.proof.jws', 'scrub --json proof "$FILE_REF"'],
  'proof verify': [
    'scrub proof verify leads.proof.jws --input leads.csv --result scrubbed.csv',
    'scrub proof verify leads.proof.jws --result scrubbed.csv --keys scrub-proof-keys.json',
  ],
  export: [
    'scrub export "$FILE_REF" -o scrubbed.csv',
    'scrub export "$FILE_REF" --line-type mobile,voip --dnc 0 -o callable.csv',
    'scrub export "$FILE_REF" --upload -o original.csv',
    'scrub export "$FILE_REF" --dnc 0 --email ops@example.com,lead@example.com',
  ],
  suppression: [
    'scrub suppression add 2015550123 "(201) 555-0124"',
    'scrub suppression import suppress.csv --phone-col Phone',
    'scrub suppression export -o suppress.csv',
  ],
  'suppression add': [
    'scrub suppression add 2015550123 "+1 201 555 0124"',
    'cut -d, -f3 optouts.csv | scrub suppression add -',
  ],
  'suppression remove': [
    'scrub suppression remove 2015550123',
    'scrub --json suppression remove - < reinstated.txt',
  ],
  'suppression import': [
    'scrub suppression import suppress.csv --phone-col Phone',
    'scrub suppression import suppress.csv --phone-col 2 --replace',
    'cat optouts.csv | scrub suppression import - --phone-col phone',
  ],
  'suppression list': [
    'scrub suppression list',
    'scrub suppression list --search 201555 --limit 100',
    'scrub --json suppression list --all',
  ],
  'suppression export': ['scrub suppression export -o suppress.csv', 'scrub suppression export | wc -l'],
  signup: ['scrub signup --email pat@example.com --name "Pat Lee"'],
  confirm: [
    'scrub confirm --email pat@example.com --code 123456',
    'scrub confirm --email pat@example.com --resend',
  ],
  login: [
    'scrub login --email pat@example.com',
    'printf %s "$PASSWORD" | scrub login --email pat@example.com --password-stdin',
  ],
  logout: ['scrub logout'],
  account: ['scrub account', 'scrub --json account'],
  'account pause': ['scrub account pause'],
  'account activate': ['scrub account activate'],
  'account lists': ['scrub account lists', 'scrub account lists litigators', 'scrub account lists --none'],
  'account export': ['scrub account export -o my-data.json'],
  'account delete': ['scrub account delete', 'scrub account delete --confirm-email pat@example.com'],
  'account auto-top-up': [
    'scrub account auto-top-up',
    'scrub account auto-top-up --on --below 1000 --plan "flexible credits" --amount 10 --low-balance 5000',
    'scrub account auto-top-up --off --no-low-balance',
  ],
  credits: ['scrub credits', 'SCRUB_API_KEY=... scrub --json credits'],
  password: ['scrub password forgot --email pat@example.com', 'scrub password change'],
  'password forgot': ['scrub password forgot --email pat@example.com'],
  'password reset': ['scrub password reset --email pat@example.com --code 123456'],
  'password change': ['scrub password change'],
  key: ['scrub key rotate'],
  'key rotate': ['scrub key rotate', 'scrub key rotate --yes --no-save'],
  config: ['scrub config list', 'scrub config set api_url https://scrub.example.com'],
  'config get': ['scrub config get api_url'],
  'config set': [
    'scrub config set api_url https://scrub.example.com',
    'printf %s "$SCRUB_KEY" | scrub config set api_key -',
    'scrub --profile work config set output json',
  ],
  'config list': ['scrub config list', 'scrub --profile work config list'],
  admin: [
    'scrub admin users --search example.com',
    'scrub admin credits pat@example.com +500 --reason "Goodwill"',
  ],
  'admin users': [
    'scrub admin users',
    'scrub admin users --role Agency --search acme',
    'scrub --json admin users --all',
  ],
  'admin user': ['scrub admin user pat@example.com'],
  'admin create': [
    'scrub admin create --email sam@example.com --name "Sam Roe" --type agency',
    'scrub admin create --email lee@client.example --agency sam@example.com',
  ],
  'admin edit': [
    'scrub admin edit sam@example.com --type admin',
    'scrub admin edit sam@example.com --email sam@acme.com',
    'scrub admin edit lee@client.example --agency sam@acme.com',
    'scrub admin edit lee@client.example --no-agency',
  ],
  'admin disable': ['scrub admin disable sam@example.com'],
  'admin enable': ['scrub admin enable sam@example.com'],
  'admin sign-out': ['scrub admin sign-out sam@example.com'],
  'admin reset-password': ['scrub admin reset-password sam@example.com'],
  'admin credits': [
    'scrub admin credits sam@example.com +1000 --reason "Refund for job $JOB_ID"',
    'scrub admin credits sam@example.com -200 --reason "Granted twice"',
  ],
  'admin purchases': [
    'scrub admin purchases sam@example.com',
    'scrub --json admin purchases sam@example.com --year 2026',
  ],
  'admin refund': [
    'scrub admin refund sam@example.com "$PURCHASE_ID" --reason "Charged twice" --yes',
    'scrub admin refund sam@example.com "$PURCHASE_ID" --amount 2.50 --reason "Partial refund"',
  ],
  'admin audit': ['scrub admin audit', 'scrub admin audit --user "$USER_ID" --limit 50'],
  'admin as': [
    'scrub admin as sam@example.com -- files',
    'scrub admin as sam@example.com -- verify 2015550123',
  ],
  webhooks: [
    'scrub webhooks add https://hooks.example.com/scrub --events job.completed',
    'scrub webhooks list',
    'scrub webhooks test "$ENDPOINT_ID"',
  ],
  'webhooks add': [
    'scrub webhooks add https://hooks.example.com/scrub',
    'scrub webhooks add https://crm.example.com/hooks/scrub --events job.failed --description "CRM alerts"',
    'scrub --json webhooks add https://hooks.example.com/scrub | jq -r .secret',
  ],
  'webhooks list': ['scrub webhooks list', 'scrub --json webhooks list'],
  'webhooks remove': ['scrub webhooks remove "$ENDPOINT_ID"'],
  'webhooks test': ['scrub webhooks test "$ENDPOINT_ID"'],
  'webhooks deliveries': [
    'scrub webhooks deliveries "$ENDPOINT_ID"',
    'scrub --json webhooks deliveries "$ENDPOINT_ID" --limit 100',
  ],
  'webhooks rotate-secret': ['scrub webhooks rotate-secret "$ENDPOINT_ID"'],
  completion: [
    'source <(scrub completion bash)',
    "echo 'source <(scrub completion zsh)' >> ~/.zshrc",
    'scrub completion fish > ~/.config/fish/completions/scrub.fish',
  ],
};

/** The command's path as `HELP_EXAMPLES` keys it: `scrub` for the program, else `admin credits`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.length === 0 ? command.name() : names.join(' ');
}

/** Adds each command's examples to the end of its help, the command's subcommands too. */
export function addHelpExamples(command: Command): void {
  const examples = HELP_EXAMPLES[commandPath(command)];
  if (examples)
    command.addHelpText('after', `\nExamples:\n${examples.map((line) => `  $ ${line}`).join('\n')}\n`);
  for (const subcommand of command.commands) addHelpExamples(subcommand);
}
