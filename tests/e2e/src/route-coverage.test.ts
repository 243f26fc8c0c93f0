import { type RouteSpec, routes } from '@scrub/contract';
import { Scrub } from '@scrub/sdk';
import { startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * One resource, four places: the contract writes a route, the server serves it, the SDK calls it,
 * and a route marked `planned` is served by nobody yet. This test keeps them in line.
 *
 * The SDK's naming rule (docs/architecture.md): a route's method sits on the namespace of its
 * contract resource and is named by the route key's verb (`listPlans` is `plans.list()`,
 * `getBulkJob` is `bulk.get()`); the service's own routes sit on the client. The table below is
 * the source: every served route needs a line here, and each line calls the SDK the way a user
 * would. A method that disappears or stops calling its route fails the test.
 */
type RouteKey = keyof typeof routes;
type SdkCall = (scrub: Scrub) => unknown;

const SDK_CALLS: Partial<Record<RouteKey, SdkCall>> = {
  health: (scrub) => scrub.health(),
  config: (scrub) => scrub.config(),
  openApi: (scrub) => scrub.openApi(),
  proofKeys: (scrub) => scrub.proofKeys(),
  contact: (scrub) =>
    scrub.contact({ name: 'Pat', email: 'pat@example.com', subject: 'Hello', message: 'A question' }),
  listPlans: (scrub) => scrub.plans.list(),
  getUser: (scrub) => scrub.user.get(),
  updateUser: (scrub) => scrub.user.update({ user_name: 'Pat' }),
  setPlanStatus: (scrub) => scrub.user.setPlanStatus('paused'),
  getCredits: (scrub) => scrub.credits.get(),
  rotateApiKey: (scrub) => scrub.apiKey.rotate(),
  verify: (scrub) => scrub.verify('2012345678'),
  verifyBatch: (scrub) => scrub.verify.batch(['2012345678']),
  createBulkJob: (scrub) => scrub.bulk.create({ file_name: 'leads.csv', phone_col: 'Phone' }),
  submitBulkJob: (scrub) => scrub.bulk.submit('job'),
  getBulkJob: (scrub) => scrub.bulk.get('job'),
  quoteBulkJob: (scrub) => scrub.bulk.quote('job'),
  streamBulkJob: (scrub) => scrub.bulk.stream(new Uint8Array(), { phone_col: 'Phone' }),
  listFiles: (scrub) => scrub.files.list(),
  getFile: (scrub) => scrub.files.get('ref'),
  downloadResult: (scrub) => scrub.files.download('ref'),
  downloadUpload: (scrub) => scrub.files.downloadUpload('ref'),
  emailFile: (scrub) => scrub.files.email('ref'),
  getFileProof: (scrub) => scrub.files.proof('ref'),
  createExistingFile: (scrub) =>
    scrub.files.uploadExisting(new Uint8Array(), {
      file_name: 'done.csv',
      phone_col: 'Phone',
      line_type_col: 'Type',
    }),
  submitExistingFile: (scrub) => scrub.files.submitExisting('job'),
  getDncSummary: (scrub) => scrub.dnc.get(),
  addDncNumbers: (scrub) => scrub.dnc.add(['2015550123']),
  removeDncNumbers: (scrub) => scrub.dnc.remove(['2015550123']),
  importDncList: (scrub) => scrub.dnc.import('Phone\n2015550123\n', { phone_col: 'Phone', mode: 'merge' }),
  listDncNumbers: (scrub) => scrub.dnc.list({ search: '201' }),
  exportDncList: (scrub) => scrub.dnc.export(),
  adminListUsers: (scrub) => scrub.admin.users.list({ search: 'pat' }),
  adminGetUser: (scrub) => scrub.admin.users.get('pat@example.com'),
  adminCreateUser: (scrub) =>
    scrub.admin.users.create({ le: 'pat@example.com', lp: 'Pw-123456', lp_confirm: 'Pw-123456', ut: 'user' }),
  adminUpdateUser: (scrub) => scrub.admin.users.update('pat@example.com', { ut: 'agency' }),
  adminDeleteUser: (scrub) => scrub.admin.users.disable('pat@example.com'),
  adminEnableUser: (scrub) => scrub.admin.users.enable('pat@example.com'),
  adminResetPassword: (scrub) => scrub.admin.users.resetPassword('pat@example.com', 'Pw-654321'),
  adminSignOutUser: (scrub) => scrub.admin.users.signOut('pat@example.com'),
  adminAdjustCredits: (scrub) => scrub.admin.users.adjustCredits('pat@example.com', 10, 'goodwill'),
  adminActAsUser: (scrub) => scrub.admin.users.actAs('pat@example.com'),
  adminListPurchases: (scrub) => scrub.admin.users.purchases('pat@example.com'),
  adminRefundPurchase: (scrub) =>
    scrub.admin.users.refund('pat@example.com', '00000000-0000-4000-8000-000000000001', {
      amount: 2.5,
      reason: 'duplicate order',
    }),
  adminListAudit: (scrub) => scrub.admin.audit.list(),
  customerExists: (scrub) => scrub.payments.customerExists(),
  listPaymentMethods: (scrub) => scrub.payments.listMethods(),
  paymentMethodExists: (scrub) => scrub.payments.hasMethod(),
  setupPayment: (scrub) =>
    scrub.payments.setup({
      customer_name: 'Pat',
      line1: '1 Main St',
      city: 'Newark',
      state: 'NJ',
      payment_method_id: 'pm_card_visa',
    }),
  purchase: (scrub) => scrub.payments.buy({ reference_code: '79541679412213', amount: 5 }),
  changePaymentMethod: (scrub) => scrub.payments.setDefaultMethod('pm_1'),
  getSubscription: (scrub) => scrub.subscription.get(),
  createSubscription: (scrub) => scrub.subscription.start('79541679412211'),
  changeSubscription: (scrub) => scrub.subscription.switch('79541679412212'),
  patchSubscription: (scrub) => scrub.subscription.pause(),
  cancelSubscription: (scrub) => scrub.subscription.cancel(),
  listPurchases: (scrub) => scrub.purchases.list({ year: 2026 }),
  createWebhookEndpoint: (scrub) => scrub.webhooks.create({ url: 'https://hooks.example.com/scrub' }),
  listWebhookEndpoints: (scrub) => scrub.webhooks.list(),
  getWebhookEndpoint: (scrub) => scrub.webhooks.get('we_1'),
  removeWebhookEndpoint: (scrub) => scrub.webhooks.remove('we_1'),
  rotateWebhookSecret: (scrub) => scrub.webhooks.rotateSecret('we_1'),
  testWebhookEndpoint: (scrub) => scrub.webhooks.test('we_1'),
  listWebhookDeliveries: (scrub) => scrub.webhooks.deliveries('we_1'),
  confirmPurchase: (scrub) => scrub.payments.confirm('pi_1'),
  createCardLink: (scrub) => scrub.payments.createCardLink(),
  getPaymentLink: (scrub) => scrub.payments.getLink('grant-1'),
  setupPaymentWithLink: (scrub) =>
    scrub.payments.setupWithLink('grant-1', {
      customer_name: 'Pat',
      line1: '1 Main St',
      city: 'Newark',
      state: 'NJ',
      payment_method_id: 'pm_1',
    }),
};

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

/** Every way the four places disagree, one line each; empty when they agree. */
async function coverageProblems(
  table: Record<string, RouteSpec>,
  served: (route: RouteSpec) => boolean,
  sdkCalls: Partial<Record<string, SdkCall>>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const [key, route] of Object.entries(table)) {
    const where = `${key} (${route.method} ${route.path})`;
    if (route.planned) {
      if (served(route)) problems.push(`${where} is marked planned but the server serves it`);
      if (sdkCalls[key]) problems.push(`${where} is marked planned but has an SDK call in this table`);
      continue;
    }
    if (!served(route)) problems.push(`${where} is not served by the server`);
    const call = sdkCalls[key];
    if (!call) {
      problems.push(`${where} has no SDK method (add it to SDK_CALLS)`);
      continue;
    }
    const requested = await routeRequestedBy(call).catch((error: unknown) => error);
    if (requested !== routes[key as RouteKey])
      problems.push(`${where}: its SDK method does not call it (${String(requested)})`);
  }
  return problems;
}

describe('the contract, the server and the SDK agree on every route', () => {
  let served: (route: RouteSpec) => boolean;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const server = await startLocalServer();
    close = () => server.close();
    served = (route) =>
      server.app.hasRoute({ method: route.method, url: route.path.replace(/\{(\w+)\}/g, ':$1') });
  }, 120_000);
  afterAll(() => close?.());

  it('has no route unserved, no route without its SDK method, and no planned route served', async () => {
    expect(await coverageProblems(routes, served, SDK_CALLS)).toEqual([]);
  });

  it('fails when the server stops serving a route', async () => {
    const withoutGetFile = (route: RouteSpec) => route !== routes.getFile && served(route);
    expect(await coverageProblems(routes, withoutGetFile, SDK_CALLS)).toEqual([
      'getFile (GET /files/{file_reference}) is not served by the server',
    ]);
  });

  it('fails when the SDK loses a method, or a method calls another route', async () => {
    const { getFile: _, ...withoutGetFile } = SDK_CALLS;
    expect(await coverageProblems(routes, served, withoutGetFile)).toEqual([
      'getFile (GET /files/{file_reference}) has no SDK method (add it to SDK_CALLS)',
    ]);
    const miswired = { ...SDK_CALLS, getFile: (scrub: Scrub) => scrub.files.list() };
    expect(await coverageProblems(routes, served, miswired)).toEqual([
      expect.stringMatching(/^getFile \(GET \/files\/\{file_reference\}\): its SDK method does not call it/),
    ]);
  });

  it('fails when a route still marked planned is served', async () => {
    const getFileStillPlanned = { ...routes, getFile: { ...routes.getFile, planned: true as const } };
    const { getFile: _, ...sdkCalls } = SDK_CALLS;
    expect(await coverageProblems(getFileStillPlanned, served, sdkCalls)).toEqual([
      'getFile (GET /files/{file_reference}) is marked planned but the server serves it',
    ]);
  });
});
