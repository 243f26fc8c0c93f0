import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RouteSpec, routes } from '@scrub/contract';
import { Scrub } from '@scrub/sdk';
import { startLocalServer } from '@scrub/test-support/local-server';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Context } from './context.js';
import { processIO } from './io.js';
import { createProgram, run } from './program.js';

/**
 * One resource, five places: the contract writes a route, the server serves it, the SDK calls it,
 * the CLI and the dashboard call the SDK. A route marked `planned` is served by nobody yet. This
 * test keeps them in line, from source (no build): it lives in the CLI's package because the CLI
 * is the last place that can import the contract, the SDK and its own command tree; the dashboard
 * is read as text.
 *
 * The SDK's naming rule (docs/architecture.md): a route's method sits on the namespace of its
 * contract resource and is named by the route key's verb (`listPlans` is `plans.list()`,
 * `getBulkJob` is `bulk.get()`); the service's own routes sit on the client. The table below is
 * the source: every served route needs a line here.
 * - sdk: calls the SDK the way a user would. A method that disappears or stops calling its route fails.
 * - cli: the command (by its name, not an alias) whose code calls that SDK method, or `via` the SDK
 *   method it calls instead (`verify.many` sends `verifyBatch`), or `notIn` with the reason.
 * - dashboard: `CALLED` when some file of packages/dashboard/src calls the SDK method (by its name
 *   or its old one: `dnc.add` counts for `suppression.add`) or builds a link to the route
 *   (`pathFor(routes.downloadResult.path, ...)`), or `notIn` with the reason.
 */
type RouteKey = keyof typeof routes;
type SdkCall = (scrub: Scrub) => unknown;
interface NotIn {
  notIn: string;
}
interface CliCommand {
  command: string;
  /** The SDK method the command's code calls, when it is not the route's own (`verify.many`). */
  via?: string;
}
const CALLED = 'called';
interface Places {
  sdk: SdkCall;
  cli: CliCommand | NotIn;
  dashboard: typeof CALLED | NotIn;
}

const notIn = (reason: string): NotIn => ({ notIn: reason });
const cli = (command: string, via?: string): CliCommand => (via ? { command, via } : { command });

const OPERATOR_ONLY = notIn('for operators and monitors, not an account: curl it');
const CARD_PAGE = notIn('a card is typed into a browser: `scrub card add` opens a card link there');
const VIA_IMPORT_FILE = notIn(
  'the Suppression screen imports a file over 1 MiB with suppression.importFile, which calls it',
);
const LINK_PAGE = notIn('the card link page (a browser without a session) calls it; the CLI makes the link');

const COVERAGE: Partial<Record<RouteKey, Places>> = {
  health: {
    sdk: (scrub) => scrub.health(),
    cli: OPERATOR_ONLY,
    dashboard: notIn('the shell does not poll it'),
  },
  healthLive: {
    sdk: (scrub) => scrub.healthLive(),
    cli: OPERATOR_ONLY,
    dashboard: notIn('for orchestrators (Kubernetes probes, systemd), not people'),
  },
  healthReady: {
    sdk: (scrub) => scrub.healthReady(),
    cli: OPERATOR_ONLY,
    dashboard: notIn('for orchestrators (Kubernetes probes, systemd), not people'),
  },
  config: {
    sdk: (scrub) => scrub.config(),
    // `scrub verify` says which do-not-call lists the checks will consult before it spends a credit.
    cli: cli('verify'),
    dashboard: CALLED,
  },
  openApi: { sdk: (scrub) => scrub.openApi(), cli: OPERATOR_ONLY, dashboard: CALLED },
  proofKeys: {
    sdk: (scrub) => scrub.proofKeys(),
    cli: cli('proof verify'),
    dashboard: notIn("a proof is checked offline, with `scrub proof verify` or the SDK's verifyProof"),
  },
  contact: {
    sdk: (scrub) =>
      scrub.contact({
        name: 'Pat',
        email: 'pat@example.com',
        subject: 'Hello',
        message: 'A question',
        altcha: 'unsolved',
      }),
    cli: notIn('a message to the operator is written in the dashboard’s Contact page'),
    dashboard: CALLED,
  },
  contactChallenge: {
    sdk: (scrub) => scrub.contactChallenge(),
    cli: notIn('the Contact page’s human check, solved in the browser'),
    dashboard: CALLED,
  },
  listPlans: { sdk: (scrub) => scrub.plans.list(), cli: cli('plans'), dashboard: CALLED },
  getUser: { sdk: (scrub) => scrub.account.get(), cli: cli('account'), dashboard: CALLED },
  updateUser: {
    sdk: (scrub) => scrub.account.update({ user_name: 'Pat' }),
    cli: notIn('name and address are edited in the dashboard’s account page'),
    dashboard: CALLED,
  },
  setPlanStatus: {
    sdk: (scrub) => scrub.account.setPlanStatus('paused'),
    cli: cli('account activate'),
    dashboard: CALLED,
  },
  getCredits: { sdk: (scrub) => scrub.account.credits(), cli: cli('credits'), dashboard: CALLED },
  listCreditHistory: { sdk: (scrub) => scrub.credits.history(), cli: cli('credits'), dashboard: CALLED },
  exportCreditHistory: {
    sdk: (scrub) => scrub.credits.exportHistory(),
    cli: cli('credits'),
    dashboard: CALLED,
  },
  getLists: { sdk: (scrub) => scrub.account.lists(), cli: cli('account lists'), dashboard: CALLED },
  setLists: {
    sdk: (scrub) => scrub.account.setLists(['litigators']),
    cli: cli('account lists'),
    dashboard: CALLED,
  },
  rotateApiKey: { sdk: (scrub) => scrub.apiKey.rotate(), cli: cli('key rotate'), dashboard: CALLED },
  verify: {
    sdk: (scrub) => scrub.verify('2012345678'),
    cli: notIn('`scrub verify` sends every number, one included, in batches (verifyBatch)'),
    dashboard: CALLED,
  },
  verifyBatch: {
    sdk: (scrub) => scrub.verify.batch(['2012345678']),
    cli: cli('verify', 'verify.many'),
    dashboard: notIn("the API page's test form checks one number (verify)"),
  },
  createBulkJob: {
    sdk: (scrub) => scrub.bulk.create({ file_name: 'leads.csv', phone_col: 'Phone' }),
    cli: cli('bulk'),
    dashboard: CALLED,
  },
  submitBulkJob: { sdk: (scrub) => scrub.bulk.submit('job'), cli: cli('bulk'), dashboard: CALLED },
  getBulkJob: {
    sdk: (scrub) => scrub.bulk.get('job'),
    cli: cli('jobs show'),
    dashboard: notIn(
      'the bulk wizard hands over to the Export page, which lists the files (listFiles) while they run',
    ),
  },
  quoteBulkJob: {
    sdk: (scrub) => scrub.bulk.quote('job'),
    cli: cli('bulk'),
    dashboard: notIn('the bulk wizard shows the count it previews in the browser before submitting'),
  },
  startBulkUpload: {
    sdk: (scrub) => scrub.bulk.startUpload('job', 10),
    cli: cli('bulk', 'bulk.uploadInParts'),
    dashboard: notIn('the bulk wizard uploads with bulk.uploadInParts, which calls it'),
  },
  getBulkUpload: {
    sdk: (scrub) => scrub.bulk.getUpload('job', 'upload'),
    cli: cli('bulk', 'bulk.uploadInParts'),
    dashboard: notIn('the bulk wizard uploads with bulk.uploadInParts, which calls it'),
  },
  completeBulkUpload: {
    sdk: (scrub) => scrub.bulk.completeUpload('job', 'upload'),
    cli: cli('bulk', 'bulk.uploadInParts'),
    dashboard: notIn('the bulk wizard uploads with bulk.uploadInParts, which calls it'),
  },
  streamBulkJob: {
    sdk: (scrub) => scrub.bulk.stream(new Uint8Array(), { phone_col: 'Phone' }),
    cli: cli('bulk'),
    dashboard: notIn('a browser uploads the file (bulk.upload) and submits it; streaming is for pipes'),
  },
  listFiles: { sdk: (scrub) => scrub.files.list(), cli: cli('files'), dashboard: CALLED },
  listChecks: { sdk: (scrub) => scrub.checks.list(), cli: cli('log'), dashboard: CALLED },
  exportChecks: { sdk: (scrub) => scrub.checks.export(), cli: cli('log'), dashboard: CALLED },
  getUsage: { sdk: (scrub) => scrub.usage.get(), cli: cli('usage'), dashboard: CALLED },
  exportUsage: { sdk: (scrub) => scrub.usage.export(), cli: cli('usage'), dashboard: CALLED },
  getFile: {
    sdk: (scrub) => scrub.files.get('ref'),
    // `scrub export --dnc 0` reads the file's dnc_notice when the Clean filter kept nothing.
    cli: cli('export'),
    dashboard: CALLED,
  },
  downloadResult: {
    sdk: (scrub) => scrub.files.download('ref'),
    cli: cli('export', 'files.download'),
    dashboard: CALLED,
  },
  listResultRows: { sdk: (scrub) => scrub.files.rows('ref'), cli: cli('log'), dashboard: CALLED },
  downloadUpload: {
    sdk: (scrub) => scrub.files.downloadUpload('ref'),
    cli: cli('export'),
    dashboard: CALLED,
  },
  emailFile: { sdk: (scrub) => scrub.files.email('ref'), cli: cli('export'), dashboard: CALLED },
  exportAccount: { sdk: (scrub) => scrub.account.export(), cli: cli('account export'), dashboard: CALLED },
  deleteAccount: {
    sdk: (scrub) => scrub.account.delete('pat@example.com'),
    cli: cli('account delete'),
    dashboard: CALLED,
  },
  deleteFile: { sdk: (scrub) => scrub.files.delete('ref'), cli: cli('files delete'), dashboard: CALLED },
  getFileProof: {
    sdk: (scrub) => scrub.files.proof('ref'),
    cli: cli('proof'),
    dashboard: notIn('a proof is for a command line or a script to keep beside the files'),
  },
  createExistingFile: {
    sdk: (scrub) =>
      scrub.files.uploadExisting(new Uint8Array(), {
        file_name: 'done.csv',
        phone_col: 'Phone',
        line_type_col: 'Type',
      }),
    cli: cli('upload-existing', 'files.uploadExisting'),
    dashboard: CALLED,
  },
  submitExistingFile: {
    sdk: (scrub) => scrub.files.submitExisting('job'),
    cli: cli('upload-existing', 'files.uploadExisting'),
    dashboard: notIn('files.uploadExisting sends it after the upload (createExistingFile)'),
  },
  getDncSummary: {
    sdk: (scrub) => scrub.suppression.get(),
    cli: notIn('`scrub --json suppression list` answers the count (total_count)'),
    dashboard: CALLED,
  },
  addDncNumbers: {
    sdk: (scrub) => scrub.suppression.add(['2015550123']),
    cli: cli('suppression add'),
    dashboard: CALLED,
  },
  removeDncNumbers: {
    sdk: (scrub) => scrub.suppression.remove(['2015550123']),
    cli: cli('suppression remove'),
    dashboard: CALLED,
  },
  importDncList: {
    sdk: (scrub) => scrub.suppression.import('Phone\n2015550123\n', { phone_col: 'Phone', mode: 'merge' }),
    cli: cli('suppression import'),
    dashboard: CALLED,
  },
  createDncImport: {
    sdk: (scrub) => scrub.suppression.createImport({ phone_col: 'Phone', mode: 'replace' }),
    cli: cli('suppression import', 'suppression.importFile'),
    dashboard: VIA_IMPORT_FILE,
  },
  submitDncImport: {
    sdk: (scrub) => scrub.suppression.submitImport('dni_1'),
    cli: cli('suppression import', 'suppression.importFile'),
    dashboard: VIA_IMPORT_FILE,
  },
  listDncNumbers: {
    sdk: (scrub) => scrub.suppression.list({ search: '201' }),
    cli: cli('suppression list'),
    dashboard: CALLED,
  },
  exportDncList: {
    sdk: (scrub) => scrub.suppression.export(),
    cli: cli('suppression export'),
    dashboard: CALLED,
  },
  adminListUsers: {
    sdk: (scrub) => scrub.admin.users.list({ search: 'pat' }),
    cli: cli('admin users'),
    dashboard: CALLED,
  },
  adminGetUser: {
    sdk: (scrub) => scrub.admin.users.get('pat@example.com'),
    cli: cli('admin user'),
    dashboard: CALLED,
  },
  adminCreateUser: {
    sdk: (scrub) =>
      scrub.admin.users.create({
        le: 'pat@example.com',
        lp: 'Pw-123456',
        lp_confirm: 'Pw-123456',
        ut: 'user',
      }),
    cli: cli('admin create'),
    dashboard: CALLED,
  },
  adminUpdateUser: {
    sdk: (scrub) => scrub.admin.users.update('pat@example.com', { ut: 'agency' }),
    cli: cli('admin edit'),
    dashboard: CALLED,
  },
  adminDeleteUser: {
    sdk: (scrub) => scrub.admin.users.disable('pat@example.com'),
    cli: cli('admin disable'),
    dashboard: CALLED,
  },
  adminEnableUser: {
    sdk: (scrub) => scrub.admin.users.enable('pat@example.com'),
    cli: cli('admin enable'),
    dashboard: CALLED,
  },
  adminResetPassword: {
    sdk: (scrub) => scrub.admin.users.resetPassword('pat@example.com', 'Pw-654321'),
    cli: cli('admin reset-password'),
    dashboard: CALLED,
  },
  adminSignOutUser: {
    sdk: (scrub) => scrub.admin.users.signOut('pat@example.com'),
    cli: cli('admin sign-out'),
    dashboard: notIn('disabling an account signs it out; the account pages have no sign-out of their own'),
  },
  adminAdjustCredits: {
    sdk: (scrub) => scrub.admin.users.adjustCredits('pat@example.com', 10, 'goodwill'),
    cli: cli('admin credits'),
    dashboard: CALLED,
  },
  adminActAsUser: {
    sdk: (scrub) => scrub.admin.users.actAs('pat@example.com'),
    cli: cli('admin as'),
    dashboard: CALLED,
  },
  adminListPurchases: {
    sdk: (scrub) => scrub.admin.users.purchases('pat@example.com'),
    cli: cli('admin purchases'),
    dashboard: CALLED,
  },
  adminRefundPurchase: {
    sdk: (scrub) =>
      scrub.admin.users.refund('pat@example.com', '00000000-0000-4000-8000-000000000001', {
        amount: 2.5,
        reason: 'duplicate order',
      }),
    cli: cli('admin refund'),
    dashboard: CALLED,
  },
  adminListAudit: { sdk: (scrub) => scrub.admin.audit.list(), cli: cli('admin audit'), dashboard: CALLED },
  customerExists: {
    sdk: (scrub) => scrub.cards.customerExists(),
    cli: notIn('`scrub card list` answers the cards themselves'),
    dashboard: notIn('the buy flow asks for a saved card (paymentMethodExists)'),
  },
  listPaymentMethods: { sdk: (scrub) => scrub.cards.listMethods(), cli: cli('card list'), dashboard: CALLED },
  paymentMethodExists: {
    sdk: (scrub) => scrub.cards.hasMethod(),
    cli: notIn('`scrub card list` answers the cards themselves'),
    dashboard: CALLED,
  },
  setupPayment: {
    sdk: (scrub) =>
      scrub.cards.setup({
        customer_name: 'Pat',
        line1: '1 Main St',
        city: 'Newark',
        state: 'NJ',
        payment_method_id: 'pm_card_visa',
      }),
    cli: CARD_PAGE,
    dashboard: CALLED,
  },
  changePaymentMethod: {
    sdk: (scrub) => scrub.cards.setDefaultMethod('pm_1'),
    cli: cli('card default'),
    dashboard: CALLED,
  },
  removePaymentMethod: {
    sdk: (scrub) => scrub.cards.removeMethod('pm_1'),
    cli: cli('card remove'),
    dashboard: CALLED,
  },
  createCardLink: {
    sdk: (scrub) => scrub.cards.createCardLink(),
    cli: cli('card add'),
    dashboard: notIn('the dashboard is signed in: its card page saves the card itself'),
  },
  getPaymentLink: { sdk: (scrub) => scrub.cards.getLink('grant-1'), cli: LINK_PAGE, dashboard: CALLED },
  setupPaymentWithLink: {
    sdk: (scrub) =>
      scrub.cards.setupWithLink('grant-1', {
        customer_name: 'Pat',
        line1: '1 Main St',
        city: 'Newark',
        state: 'NJ',
        payment_method_id: 'pm_1',
      }),
    cli: LINK_PAGE,
    dashboard: CALLED,
  },
  purchase: {
    sdk: (scrub) => scrub.purchases.buy({ reference_code: '79541679412213', amount: 5 }),
    cli: cli('buy'),
    dashboard: CALLED,
  },
  confirmPurchase: {
    sdk: (scrub) => scrub.purchases.confirm('pi_1'),
    cli: cli('buy', 'purchases.waitForConfirmation'),
    dashboard: notIn("Stripe.js confirms in the page, and the provider's event records the purchase"),
  },
  listPurchases: {
    sdk: (scrub) => scrub.purchases.list({ year: 2026 }),
    cli: cli('purchases'),
    dashboard: CALLED,
  },
  getAutoTopUp: {
    sdk: (scrub) => scrub.purchases.getAutoTopUp(),
    cli: cli('account auto-top-up'),
    dashboard: CALLED,
  },
  setAutoTopUp: {
    sdk: (scrub) => scrub.purchases.setAutoTopUp({ enabled: false }),
    cli: cli('account auto-top-up'),
    dashboard: CALLED,
  },
  getSubscription: {
    sdk: (scrub) => scrub.subscriptions.get(),
    cli: cli('subscription show'),
    dashboard: CALLED,
  },
  createSubscription: {
    sdk: (scrub) => scrub.subscriptions.start('79541679412211'),
    cli: cli('subscription start'),
    dashboard: CALLED,
  },
  changeSubscription: {
    sdk: (scrub) => scrub.subscriptions.switch('79541679412212'),
    cli: cli('subscription switch'),
    dashboard: CALLED,
  },
  patchSubscription: {
    sdk: (scrub) => scrub.subscriptions.pause(),
    cli: cli('subscription pause'),
    dashboard: CALLED,
  },
  cancelSubscription: {
    sdk: (scrub) => scrub.subscriptions.cancel(),
    cli: cli('subscription cancel'),
    dashboard: CALLED,
  },
  createWebhookEndpoint: {
    sdk: (scrub) => scrub.webhooks.create({ url: 'https://hooks.example.com/scrub' }),
    cli: cli('webhooks add'),
    dashboard: CALLED,
  },
  listWebhookEndpoints: {
    sdk: (scrub) => scrub.webhooks.list(),
    cli: cli('webhooks list'),
    dashboard: CALLED,
  },
  getWebhookEndpoint: {
    sdk: (scrub) => scrub.webhooks.get('we_1'),
    cli: notIn('`scrub webhooks list` shows every endpoint whole'),
    dashboard: notIn('the Webhooks screen lists every endpoint whole'),
  },
  removeWebhookEndpoint: {
    sdk: (scrub) => scrub.webhooks.remove('we_1'),
    cli: cli('webhooks remove'),
    dashboard: CALLED,
  },
  rotateWebhookSecret: {
    sdk: (scrub) => scrub.webhooks.rotateSecret('we_1', { grace_seconds: 3600 }),
    cli: cli('webhooks rotate-secret'),
    dashboard: CALLED,
  },
  testWebhookEndpoint: {
    sdk: (scrub) => scrub.webhooks.test('we_1'),
    cli: cli('webhooks test'),
    dashboard: CALLED,
  },
  listWebhookDeliveries: {
    sdk: (scrub) => scrub.webhooks.deliveries('we_1'),
    cli: cli('webhooks deliveries'),
    dashboard: CALLED,
  },
};

/** Old SDK names, still answered (docs/sdk.md): code written with them counts as calling the new ones. */
const OLD_NAMESPACES: Record<string, string[]> = {
  account: ['user'],
  suppression: ['dnc'],
  cards: ['payments'],
  purchases: ['payments'],
  subscriptions: ['subscription'],
};
const OLD_METHODS: Record<string, string> = { 'account.credits': 'credits.get' };

/** Which route an SDK call asks for: `request` is stopped before anything goes on the wire. */
async function routeRequestedBy(call: SdkCall): Promise<RouteSpec | undefined> {
  const scrub = new Scrub({ baseURL: 'http://127.0.0.1:9', apiKey: 'scrub_test', maxRetries: 0 });
  const stop = new Error('stopped before sending');
  let requested: RouteSpec | undefined;
  vi.spyOn(scrub, 'request').mockImplementation(async (route: RouteSpec) => {
    requested ??= route;
    throw stop;
  });
  try {
    await call(scrub);
  } catch (error) {
    if (error !== stop) throw error;
  }
  return requested;
}

/** The SDK method an SDK call uses, as code writes it: `suppression.add`, `admin.users.list`, `verify`. */
function methodOf(call: SdkCall): string {
  const names: string[] = [];
  let called = false;
  const recorder: object = new Proxy(() => {}, {
    get: (_, name) => {
      if (!called) names.push(String(name));
      return recorder;
    },
    apply: () => {
      called = true;
      return recorder;
    },
  });
  call(recorder as Scrub);
  return names.join('.');
}

/** The method's name and its old names: `suppression.add`, `dnc.add`. */
function namesOf(method: string): string[] {
  const [namespace = '', ...rest] = method.split('.');
  const old = (OLD_NAMESPACES[namespace] ?? []).map((name) => [name, ...rest].join('.'));
  return [method, ...old, ...(OLD_METHODS[method] ? [OLD_METHODS[method]] : [])];
}

/**
 * Whether some source calls the method (`scrub.suppression.add(`, or `suppression.add(` on a
 * namespace held in a variable of its name; a line break allowed before a dot).
 */
function calls(sources: readonly string[], method: string): boolean {
  // A client method (`verify`, `health`) only as `.verify(`: a bare `verify(` is some other function.
  const start = method.includes('.') ? '\\b' : '\\.';
  const pattern = new RegExp(`${start}${method.split('.').join('\\s*\\.')}\\s*\\(`);
  return sources.some((source) => pattern.test(source));
}

/** The text of every source file (tests left out) under a folder. */
function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => readFileSync(join(folder, file), 'utf8'));
}

/** Every command path of the program, by name and by alias: `suppression add`, `dnc add`. */
function commandPaths(command: Command, prefix: string[] = []): string[] {
  return command.commands.flatMap((sub) =>
    [sub.name(), ...sub.aliases()].flatMap((name) => {
      const path = [...prefix, name];
      return [path.join(' '), ...commandPaths(sub, path)];
    }),
  );
}

/** What the CLI and the dashboard are made of, as the checks read them. */
interface Clients {
  cliCommands: ReadonlySet<string>;
  cliSources: readonly string[];
  dashboardSources: readonly string[];
}

function readClients(): Clients {
  const program = createProgram(new Context(processIO(), () => ({ input: false }), run));
  return {
    cliCommands: new Set(commandPaths(program)),
    cliSources: sourcesUnder(fileURLToPath(new URL('.', import.meta.url))),
    // A data module names its namespace once (`const files = async () => (await loadScrub()).files`)
    // and calls `(await files()).list(...)`: read that as `.files.list(`.
    dashboardSources: sourcesUnder(fileURLToPath(new URL('../../dashboard/src', import.meta.url))).map(
      (source) => source.replaceAll(/\(await (\w+)\(\)\)\./g, '.$1.'),
    ),
  };
}

/** Every way the five places disagree, one line each; empty when they agree. */
async function coverageProblems(
  table: Record<string, RouteSpec>,
  served: (route: RouteSpec) => boolean,
  coverage: Partial<Record<string, Places>>,
  clients: Clients,
): Promise<string[]> {
  const problems: string[] = [];
  for (const [key, route] of Object.entries(table)) {
    const where = `${key} (${route.method} ${route.path})`;
    const places = coverage[key];
    if (route.planned) {
      if (served(route)) problems.push(`${where} is marked planned but the server serves it`);
      if (places) problems.push(`${where} is marked planned but has a line in COVERAGE`);
      continue;
    }
    if (!served(route)) problems.push(`${where} is not served by the server`);
    if (!places) {
      problems.push(`${where} has no line in COVERAGE (its SDK method, CLI command and dashboard)`);
      continue;
    }
    const requested = await routeRequestedBy(places.sdk).catch((error: unknown) => error);
    if (requested !== routes[key as RouteKey]) {
      // The CLI and dashboard columns are checked by the SDK method's name: mend the SDK first.
      problems.push(`${where}: its SDK method does not call it (${String(requested)})`);
      continue;
    }
    const method = methodOf(places.sdk);
    if ('command' in places.cli) {
      const { command, via = method } = places.cli;
      if (!clients.cliCommands.has(command))
        problems.push(`${where}: the CLI has no command "scrub ${command}"`);
      else if (!calls(clients.cliSources, via)) problems.push(`${where}: no CLI code calls ${via}()`);
    } else if (calls(clients.cliSources, method)) {
      problems.push(`${where}: marked not in the CLI, but CLI code calls ${method}()`);
    }
    const linked = clients.dashboardSources.some((source) => source.includes(`pathFor(routes.${key}.path`));
    const inDashboard = linked || namesOf(method).some((name) => calls(clients.dashboardSources, name));
    if (places.dashboard === CALLED && !inDashboard)
      problems.push(`${where}: no dashboard file calls ${method}() (or links to the route)`);
    if (places.dashboard !== CALLED && inDashboard)
      problems.push(`${where}: marked not in the dashboard, but a dashboard file calls ${method}()`);
  }
  return problems;
}

describe('the contract, the server, the SDK, the CLI and the dashboard agree on every route', () => {
  let served: (route: RouteSpec) => boolean;
  let close: () => Promise<void>;
  const clients = readClients();

  // Starting the service runs its migrations on PGlite: seconds alone, tens on a busy machine.
  beforeAll(async () => {
    const server = await startLocalServer();
    close = () => server.close();
    served = (route) =>
      server.app.hasRoute({ method: route.method, url: route.path.replace(/\{(\w+)\}/g, ':$1') });
  }, 120_000);
  afterAll(() => close?.());

  it('has no route unserved, none without its SDK method, CLI and dashboard line, and no planned route served', async () => {
    expect(await coverageProblems(routes, served, COVERAGE, clients)).toEqual([]);
  });

  it('fails when the server stops serving a route', async () => {
    const withoutGetFile = (route: RouteSpec) => route !== routes.getFile && served(route);
    expect(await coverageProblems(routes, withoutGetFile, COVERAGE, clients)).toEqual([
      'getFile (GET /files/{file_reference}) is not served by the server',
    ]);
  });

  it('fails when the SDK loses a method, or a method calls another route', async () => {
    const { getFile: _, ...withoutGetFile } = COVERAGE;
    expect(await coverageProblems(routes, served, withoutGetFile, clients)).toEqual([
      'getFile (GET /files/{file_reference}) has no line in COVERAGE (its SDK method, CLI command and dashboard)',
    ]);
    const miswired = {
      ...COVERAGE,
      getFile: { ...(COVERAGE.getFile as Places), sdk: (scrub: Scrub) => scrub.files.list() },
    };
    expect(await coverageProblems(routes, served, miswired, clients)).toEqual([
      expect.stringMatching(/^getFile \(GET \/files\/\{file_reference\}\): its SDK method does not call it/),
    ]);
  });

  it('fails when a route still marked planned is served', async () => {
    const getFileStillPlanned = { ...routes, getFile: { ...routes.getFile, planned: true as const } };
    const { getFile: _, ...coverage } = COVERAGE;
    expect(await coverageProblems(getFileStillPlanned, served, coverage, clients)).toEqual([
      'getFile (GET /files/{file_reference}) is marked planned but the server serves it',
    ]);
  });

  it('fails when the CLI loses a command or stops calling the SDK, or the dashboard stops calling it', async () => {
    const cliCommands = new Set([...clients.cliCommands].filter((path) => path !== 'purchases'));
    expect(await coverageProblems(routes, served, COVERAGE, { ...clients, cliCommands })).toEqual([
      'listPurchases (GET /purchases): the CLI has no command "scrub purchases"',
    ]);
    const listPurchases = COVERAGE.listPurchases as Places;
    const stale = {
      ...COVERAGE,
      listPurchases: { ...listPurchases, cli: notIn('no'), dashboard: notIn('no') },
    };
    expect(await coverageProblems(routes, served, stale, clients)).toEqual([
      'listPurchases (GET /purchases): marked not in the CLI, but CLI code calls purchases.list()',
      'listPurchases (GET /purchases): marked not in the dashboard, but a dashboard file calls purchases.list()',
    ]);
    const without = (sources: readonly string[], call: RegExp) =>
      sources.map((source) => source.replaceAll(call, '.gone('));
    expect(
      await coverageProblems(routes, served, COVERAGE, {
        ...clients,
        cliSources: without(clients.cliSources, /\.purchases\s*\.list\(/g),
        // By its name or its old one (`scrub.dnc.list`), both count.
        dashboardSources: without(clients.dashboardSources, /\.(purchases|suppression|dnc)\s*\.list\(/g),
      }),
    ).toEqual([
      'listPurchases (GET /purchases): no CLI code calls purchases.list()',
      'listPurchases (GET /purchases): no dashboard file calls purchases.list() (or links to the route)',
      'listDncNumbers (GET /dnc/numbers): no dashboard file calls suppression.list() (or links to the route)',
    ]);
  });
});
